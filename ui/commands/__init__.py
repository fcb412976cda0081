"""The window's commands, grouped by menu; each object is given the window it acts in."""
