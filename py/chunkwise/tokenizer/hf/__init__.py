"""Hugging Face tokenizer.json files counted exactly in pure Python: the pipeline's
components (normalizers, pre-tokenizers, models), their regex and Unicode, the
schema check, and where the files come from.
"""
