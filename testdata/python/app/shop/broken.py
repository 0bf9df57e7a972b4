"""This file does not parse."""


def ok():
    return 1


def broken(:
    pass


class StillFound:
    def method(self):
        return ok()
