"""Command line entry point."""
import sys

import requests

from shop import Billing, Order, Product
from shop.services.billing import bill_all
from shop.util.text import slugify

HANDLERS = {}


def register(name):
    def deco(fn):
        HANDLERS[name] = fn
        return fn

    return deco


@register("slug")
def cmd_slug(args, slugify=None):
    # The parameter shadows the imported slugify.
    return slugify(args[0]) if slugify else args[0]


@register("title")
def cmd_title(args):
    def slugify(text):
        return text.title()

    return slugify(args[0])


@register("order")
def cmd_order(args):
    order = Order(1).add(Product(2, "pen", 1.5))
    bill_all([order])
    Billing.create()
    print(order.total)


def fetch(url):
    return requests.get(url).json()


def main(argv=None):
    argv = argv or sys.argv[1:]
    handler = HANDLERS.get(argv[0])
    if handler is None:
        sys.exit(fetch(argv[0]))
    return handler(argv[1:])


if __name__ == "__main__":
    main()
