from .billing import BillingService
from .gateway import Gateway, StripeGateway
