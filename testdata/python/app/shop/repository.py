"""Storage."""
import json
import logging

from .models import Order, Product

log = logging.getLogger(__name__)
MAX_ITEMS = 100


class Repository:
    def __init__(self, path):
        self.path = path
        self.items: dict = {}

    def get(self, key):
        return self.items.get(key)

    def save(self, entity):
        if len(self.items) >= MAX_ITEMS:
            log.warning("full")
            self._flush()
        self.items[entity.key()] = entity

    def _flush(self):
        with open(self.path, "w") as fh:
            json.dump(list(self.items), fh)
        self.items.clear()


class OrderRepository(Repository):
    def new_order(self, id: int) -> Order:
        order = Order(id)
        self.save(order)
        return order

    def load_product(self, data) -> Product:
        return Product.from_dict(data)


default_repository = OrderRepository("/tmp/shop.json")
