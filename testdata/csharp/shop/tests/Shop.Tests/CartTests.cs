using Shop.Orders;
using Shop.Payments;
using Shop.Util;
using Xunit;

namespace Shop.Tests;

public class CartTests
{
    private readonly Cart cart = new Cart(new FakeGateway(), new ConsoleLogger());

    [Fact]
    public void PutAddsItems()
    {
        cart.Put("apple", 2);
        Assert.Equal(2, cart.Order.Total());
    }

    [Theory]
    [InlineData(10)]
    public async Task CheckoutPays(int percent)
    {
        cart.Order.ApplyDiscount(percent);
        var receipt = await cart.CheckoutAsync();
        Assert.NotNull(receipt);
        var text = 12m.WithCurrency();
        Helper(text);
    }

    private static void Helper(string s) { }
}
