"""Charts drawn with pyqtgraph: the initiative-pass timeline and outcome distributions.

Items are created once and updated with ``setData``; nothing here computes game rules.
"""
