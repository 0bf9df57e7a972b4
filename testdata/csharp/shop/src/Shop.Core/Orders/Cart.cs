using Shop.Payments;
using Shop.Util;

namespace Shop.Orders;

public sealed class Cart
{
    private readonly Order order = new();
    private readonly IPaymentGateway gateway;
    private readonly ILogger log;

    public Cart(IPaymentGateway gateway, ILogger log)
    {
        this.gateway = gateway;
        this.log = log;
    }

    public Order Order => order;

    public void Put(string sku) => Put(sku, 1);

    public void Put(string sku, int quantity)
    {
        order.Add(sku, quantity);
        log.Info("put " + sku);
    }

    public void Put(Item item, string note) => order.Add(item);

    public void Put(Item item, int quantity) => order.Add(item);

    public void Merge(Item first, Item second)
    {
        Put(first, 1);
        Put(second, "merged");
    }

    public void PutMany(params string[] skus)
    {
        foreach (var sku in skus)
        {
            Put(sku);
        }
    }

    public async Task<Receipt> CheckoutAsync()
    {
        var total = order.Due();
        var result = await gateway.ChargeAsync(order.Id, total);
        if (!result.Ok)
        {
            log.Error("payment failed: " + result.Message);
            return null;
        }
        order.MarkPaid();
        var receipt = Receipt.For(order, result);
        receipt.Print(Console.Out);
        return receipt;
    }

    public string Summary()
    {
        var text = order.Id.Trim();
        return text.ToUpperInvariant() + Money.Format(order.Total());
    }
}
