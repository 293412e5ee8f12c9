"""The use cases: one function per user action or read, each one service call and one
undo step, acting on an open library (services/runtime/desk.py).
"""
