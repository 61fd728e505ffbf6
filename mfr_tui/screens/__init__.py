"""Screens and modals of the app."""
