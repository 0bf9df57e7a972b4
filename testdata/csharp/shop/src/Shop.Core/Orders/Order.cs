using System.Linq;

namespace Shop.Orders
{
    /// <summary>
    /// An order: items and a status.
    /// </summary>
    public partial class Order
    {
        private readonly List<Item> items = new List<Item>();
        public const int MaxItems = 50;

        public Order(string id)
        {
            Id = id;
            Status = OrderStatus.New;
        }

        public Order() : this(Guid.NewGuid().ToString())
        {
        }

        public string Id { get; }
        public OrderStatus Status { get; private set; }
        public event StatusChanged Changed;

        public void Add(Item item)
        {
            if (items.Count >= MaxItems)
            {
                throw new InvalidOperationException("too many items");
            }
            items.Add(item);
        }

        public void Add(string sku, int quantity) => Add(new Item(sku, quantity, 0m));

        public decimal Total()
        {
            return items.Sum(i => i.Total());
        }

        internal void MarkPaid()
        {
            Status = OrderStatus.Paid;
            Changed?.Invoke(this, Status);
        }
    }
}
