"""Team libraries in the window: connecting, the server's watch, working offline."""
