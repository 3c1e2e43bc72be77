"""Training beside the pipeline: finetune, pretrain, evaluate and calibrate models on labelled documents.

Nothing on the inference path (`docextract run`) imports this package.
"""
