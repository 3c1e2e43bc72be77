"""Training on sources that annotate only some labels (receipts, e-invoices): their unlabelled words are
left open for the labels they do not annotate, never taught as O; scoring ignores those labels too."""

import torch
import torch.nn.functional as F

from docextract.data.labelled import LabelledDocument
from docextract.document import Box, Document, Page, Word, WordRef
from docextract.extraction.entities import TaggedWord
from docextract.modeling import from_preset
from docextract.modeling.batching import collate
from docextract.modeling.heads import partial_label_loss
from docextract.modeling.tokenizer import load_tokenizer
from docextract.evaluation.evaluate import only_annotated
from docextract.training.finetune import encode_documents, unannotated_tags

TAGS = ["O", "B-total", "I-total", "B-invoice_number", "I-invoice_number"]
LABEL_IDS = {tag: i for i, tag in enumerate(TAGS)}


def _logits_and_labels():
    torch.manual_seed(0)
    logits = torch.randn(2, 6, len(TAGS))
    labels = torch.tensor([[-100, 0, 1, 2, 0, -100], [-100, 3, 0, 0, -100, -100]])
    return logits, labels


def test_with_no_open_tag_the_loss_is_plain_cross_entropy():
    logits, labels = _logits_and_labels()
    closed = torch.zeros(2, len(TAGS), dtype=torch.bool)
    plain = F.cross_entropy(logits.view(-1, len(TAGS)), labels.view(-1), ignore_index=-100)
    assert torch.allclose(partial_label_loss(logits, labels, closed), plain)
    weight = torch.tensor([1.0, 5.0, 5.0, 5.0, 5.0])
    weighted = F.cross_entropy(logits.view(-1, len(TAGS)), labels.view(-1), ignore_index=-100, weight=weight)
    assert torch.allclose(partial_label_loss(logits, labels, closed, weight), weighted)


def test_an_o_word_may_be_any_open_tag_and_labelled_words_keep_their_loss():
    logits, labels = _logits_and_labels()
    open_tags = torch.zeros(2, len(TAGS), dtype=torch.bool)
    open_tags[0, 3:] = True  # document 0 does not annotate invoice_number
    log_probs = F.log_softmax(logits, -1)
    expected = []
    for b in range(2):
        for s in range(6):
            tag = int(labels[b, s])
            if tag == -100:
                continue
            if tag == 0 and b == 0:
                expected.append(torch.logsumexp(log_probs[b, s, [0, 3, 4]], -1))
            else:
                expected.append(log_probs[b, s, tag])
    assert torch.allclose(partial_label_loss(logits, labels, open_tags), -torch.stack(expected).mean())
    # an O word predicted as the unannotated label costs (almost) nothing
    confident = torch.full((1, 1, len(TAGS)), -10.0)
    confident[0, 0, 3] = 10.0
    o_word = torch.zeros(1, 1, dtype=torch.long)
    assert partial_label_loss(confident, o_word, open_tags[:1]) < 1e-3
    assert partial_label_loss(confident, o_word, torch.zeros(1, len(TAGS), dtype=torch.bool)) > 10


def test_the_model_takes_open_tags_from_the_batch_and_learns_through_them():
    torch.manual_seed(0)
    model = from_preset("layoutlm", num_labels=len(TAGS), num_hidden_layers=1)
    input_ids = torch.randint(1000, 2000, (2, 6))
    _, labels = _logits_and_labels()
    batch = dict(input_ids=input_ids, attention_mask=torch.ones_like(input_ids),
                 bbox=torch.zeros(2, 6, 4, dtype=torch.long), labels=labels)
    plain = model.eval()(**batch).loss
    open_tags = torch.tensor([[0, 0, 0, 1, 1], [0, 0, 0, 0, 0]], dtype=torch.bool)
    partial = model(**batch, open_tags=open_tags).loss
    assert partial < plain  # more is allowed for document 0's O words, so the loss can only drop
    partial.backward()
    assert model.classifier.weight.grad.abs().sum() > 0


def _receipt(label_set):
    words = tuple(Word(text, Box(10 + 60 * i, 10, 60 + 60 * i, 20)) for i, text in enumerate(["Total", "12.50", "No", "7"]))
    document = Document(source="r.json", pages=(Page(number=1, width=400, height=100, words=words),))
    return LabelledDocument("r", document, (("O", "total", "O", "O"),), ((None,) * 4,), tuple(label_set))


def test_windows_of_a_partly_annotated_document_carry_its_open_tags():
    tokenizer = load_tokenizer()
    partial, full = _receipt(["total"]), _receipt(["total", "invoice_number"])
    assert unannotated_tags(partial.label_set, LABEL_IDS) == [0, 0, 0, 1, 1]
    examples = encode_documents([partial, full], tokenizer, LABEL_IDS, "BIO", 510, 128)
    assert [e["open_tags"] for e in examples] == [[0, 0, 0, 1, 1], [0, 0, 0, 0, 0]]
    assert collate(examples)["open_tags"].tolist() == [[False, False, False, True, True], [False] * 5]
    # data that annotates every label trains exactly as before: no open_tags at all
    assert all("open_tags" not in e for e in encode_documents([full], tokenizer, LABEL_IDS, "BIO", 510, 128))


def test_renamed_labels_and_scoring_only_what_a_document_annotates():
    receipt = _receipt(["total"])
    renamed = receipt.renamed({"total": "amount_due"})
    assert renamed.label_set == ("amount_due",) and renamed.labels == (("O", "amount_due", "O", "O"),)
    tagged = [TaggedWord(WordRef(0, 0), "O", 0.9), TaggedWord(WordRef(0, 1), "B-total", 0.8),
              TaggedWord(WordRef(0, 2), "B-invoice_number", 0.7), TaggedWord(WordRef(0, 3), "I-invoice_number", 0.7)]
    assert [w.tag for w in only_annotated(tagged, receipt.label_set)] == ["O", "B-total", "O", "O"]
