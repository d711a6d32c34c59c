"""Low-cost evaluation (thesis ch. 7–8, appendix A): estimate effectiveness from
incomplete judgments, judge next what matters most, stop when confident.
"""
