import pytest

from shop.repository import OrderRepository


@pytest.fixture
def repo(tmp_path):
    return OrderRepository(str(tmp_path / "db.json"))
