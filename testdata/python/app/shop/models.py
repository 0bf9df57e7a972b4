"""Domain objects."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Optional

from .util.text import slugify

DEFAULT_CURRENCY = "EUR"
_registry = {}


class Entity(ABC):
    """Something with an id."""

    def __init__(self, id: int) -> None:
        self.id = id
        self._touched = False

    def touch(self):
        self._touched = True
        return self

    @abstractmethod
    def key(self) -> str:
        """A stable key."""


class Product(Entity):
    """A thing to sell."""

    currency = DEFAULT_CURRENCY

    def __init__(self, id: int, name: str, price: float):
        super().__init__(id)
        self.name = name
        self.price = price
        self.slug = slugify(name)

    def key(self) -> str:
        return self.slug

    @classmethod
    def from_dict(cls, data: dict) -> "Product":
        product = cls(data["id"], data["name"], data["price"])
        product.touch()
        return product

    @staticmethod
    def validate(price) -> bool:
        return price >= 0


class Order(Entity):
    def __init__(self, id: int, lines: Optional[list] = None):
        super(Order, self).__init__(id)
        self.lines = lines or []
        self.total_cache: Optional[float] = None

    def key(self) -> str:
        return f"order-{self.id}"

    def add(self, product: Product, qty: int = 1) -> "Order":
        if not Product.validate(product.price):
            raise ValueError("bad price")
        self.lines.append((product, qty))
        self.touch()
        return self

    @property
    def total(self) -> float:
        return sum(p.price * q for p, q in self.lines)

    def describe(self) -> str:
        names = [p.key() for p, _ in self.lines]
        return ", ".join(names)
