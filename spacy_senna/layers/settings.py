"""Checks of a network's settings, each error naming the setting and its value."""


def check_window_size(window_size: int) -> None:
    """A window of words centred on one word: odd and positive."""
    if window_size < 1 or window_size % 2 == 0:
        raise ValueError(f"window_size must be odd and positive, got {window_size}")


def check_positive(**settings: int) -> None:
    """Widths and depths: each at least 1."""
    for name, value in settings.items():
        if value < 1:
            raise ValueError(f"{name} must be positive, got {value}")
