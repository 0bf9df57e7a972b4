#!/usr/bin/env python3
"""Seed the repository with demo products."""
from shop import Product
from shop.repository import default_repository as repo

PRODUCTS = [("pen", 1.5), ("ink", 3.0)]


def seed():
    for i, (name, price) in enumerate(PRODUCTS):
        repo.save(Product(i, name, price))
    return repo


if __name__ == "__main__":
    seed()
