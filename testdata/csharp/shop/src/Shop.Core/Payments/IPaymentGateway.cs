using System.Threading.Tasks;

namespace Shop.Payments
{
    /// <summary>Charges money.</summary>
    public interface IPaymentGateway
    {
        Task<ChargeResult> ChargeAsync(string orderId, decimal amount);
        string Name { get; }
    }

    public class ChargeResult
    {
        public bool Ok { get; init; }
        public string Message { get; init; }
        public string TransactionId { get; init; }

        public static ChargeResult Failed(string message) => new ChargeResult { Ok = false, Message = message };
    }
}
