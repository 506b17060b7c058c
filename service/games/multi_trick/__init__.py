"""Bura-family trick engine, wire form and schemas shared by Bura and Kozel-bura."""
