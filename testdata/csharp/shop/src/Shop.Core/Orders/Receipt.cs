using System.IO;
using Shop.Payments;

namespace Shop.Orders;

public class Receipt
{
    private Receipt(Order order, string transaction)
    {
        Order = order;
        Transaction = transaction;
    }

    public Order Order { get; }
    public string Transaction { get; }

    public static Receipt For(Order order, ChargeResult result)
    {
        return new Receipt(order, result.TransactionId);
    }

    public void Print(TextWriter writer)
    {
        writer.WriteLine($"{Transaction}: {Order.Total()}");
        Order.Total().ToString("F2");
    }
}
