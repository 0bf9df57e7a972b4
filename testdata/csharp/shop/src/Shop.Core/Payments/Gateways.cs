using System.Threading.Tasks;
using Shop.Util;

namespace Shop.Payments
{
    public abstract class GatewayBase : IPaymentGateway
    {
        protected readonly ILogger Log;

        protected GatewayBase(ILogger log) { Log = log; }

        public abstract string Name { get; }

        public abstract Task<ChargeResult> ChargeAsync(string orderId, decimal amount);

        protected void Audit(string message) => Log.Info(Name + ": " + message);
    }

    public class CardGateway : GatewayBase
    {
        public CardGateway(ILogger log) : base(log) { }

        public override string Name => "card";

        public override async Task<ChargeResult> ChargeAsync(string orderId, decimal amount)
        {
            Audit("charge " + orderId);
            await Task.Delay(10);
            return new ChargeResult { Ok = true, TransactionId = Guid.NewGuid().ToString() };
        }
    }

    public sealed class FakeGateway : IPaymentGateway, IDisposable
    {
        public string Name => "fake";

        public Task<ChargeResult> ChargeAsync(string orderId, decimal amount)
        {
            if (amount <= 0)
            {
                return Task.FromResult(ChargeResult.Failed("nothing to charge"));
            }
            return Task.FromResult(new ChargeResult { Ok = true, TransactionId = "fake-" + orderId });
        }

        public void Dispose() { }
    }
}
