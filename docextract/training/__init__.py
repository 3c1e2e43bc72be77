"""Training beside the pipeline: finetune and pretrain models on labelled documents (measuring them: docextract.evaluation).

Nothing on the inference path (`docextract run`) imports this package.
"""
