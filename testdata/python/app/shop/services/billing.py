"""Billing."""
import asyncio

import shop.models as m
from shop.repository import OrderRepository, default_repository

from .. import repository
from ..util.text import retry, slugify
from .gateway import StripeGateway


class BillingService:
    """Charges orders."""

    def __init__(self, repo: OrderRepository, gateway=None):
        self.repo = repo
        self.gateway = gateway or StripeGateway()
        self.fallback = StripeGateway()
        self.audit = []

    @retry(times=2)
    async def charge(self, order: m.Order) -> bool:
        """Charge an order."""
        amount = order.total
        ok = self.gateway.pay(amount)
        if ok:
            self._record(order)
        else:
            self.fallback.refund(amount)
            await asyncio.sleep(1)
        return ok

    def _record(self, order):
        def line(o):
            return slugify(o.key())

        self.audit.append(line(order))
        self.repo.save(order)

    def reorder(self, order_id):
        repo = repository.default_repository
        order = repo.new_order(order_id)
        return self.charge(order)

    @classmethod
    def create(cls):
        return cls(default_repository)


def bill_all(orders):
    service = BillingService(OrderRepository("/tmp/bills.json"))
    for order in orders:
        service.charge(order)
