import abc


class Gateway(abc.ABC):
    @abc.abstractmethod
    def pay(self, amount: float) -> bool: ...

    def refund(self, amount):
        return self.pay(-amount)


class StripeGateway(Gateway):
    def __init__(self, key=None):
        self.key = key

    def pay(self, amount: float) -> bool:
        return amount > 0
