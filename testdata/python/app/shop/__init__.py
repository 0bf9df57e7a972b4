"""A small shop: products, orders and billing."""

from .models import Order, Product
from .services import BillingService as Billing

__all__ = ["Order", "Product", "Billing"]
VERSION = "1.0"
