"""Tokenizers: the contract the token index needs, the registry that turns an `encoding`
name into one, the token index (exact counts of any slice), and the two families:
tiktoken's BPE (tiktoken/) and Hugging Face tokenizer.json files (hf/).
"""
