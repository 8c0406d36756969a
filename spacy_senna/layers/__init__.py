"""PyTorch modules: lookup tables, SENNA's window and sentence networks, CRF and WLL criteria."""
