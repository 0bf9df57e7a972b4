namespace Shop.Orders
{
    public partial class Order
    {
        private decimal discount;

        public void ApplyDiscount(decimal percent)
        {
            discount = Util.Money.Round(Total() * percent / 100m);
        }

        public decimal Due() => Total() - discount;
    }
}
