"""The web app's views: one blueprint module per concern."""
