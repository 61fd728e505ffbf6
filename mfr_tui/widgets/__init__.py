"""Widgets of the main screen: the library pane and the Q&A view."""
