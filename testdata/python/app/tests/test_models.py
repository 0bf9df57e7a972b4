import pytest

from shop import Order, Product
from shop.models import Entity


class TestOrder:
    def test_total(self):
        order = Order(1).add(Product(1, "pen", 2.0), qty=3)
        assert order.total == 6.0

    def test_key(self, repo):
        order = repo.new_order(7)
        assert order.key() == "order-7"

    def helper(self):
        return Product.from_dict({"id": 1, "name": "x", "price": 1})


def test_entity_is_abstract():
    with pytest.raises(TypeError):
        Entity(1)
