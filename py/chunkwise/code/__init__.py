"""Source code structure: which language a text is, the lexer and block scan
(strings, comments, definitions), and the code ladder's cuts.
"""
