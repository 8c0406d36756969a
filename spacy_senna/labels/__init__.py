"""Label schemes (IOB1/IOB2/BILUO, chunks) and the token attributes each Doc annotation sets."""
