"""Thinc wiring of the torch networks: the registered architectures, docs -> sequences -> scores."""
