namespace Shop.Orders;

/// <summary>A line of an order.</summary>
public record Item(string Sku, int Quantity, decimal Price)
{
    public decimal Total() => Price * Quantity;
}

public enum OrderStatus
{
    New,
    Paid,
    Shipped = 4,
}

public delegate void StatusChanged(Order order, OrderStatus status);
