"""From a Document to chunks: the packer, the strategies' policies, the overlap,
the strategy registry, and where topics shift.
"""
