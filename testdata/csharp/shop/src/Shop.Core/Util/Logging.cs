namespace Shop.Util
{
    public interface ILogger
    {
        void Info(string message);
        void Error(string message);
    }

    public class ConsoleLogger : ILogger
    {
        public void Info(string message) => Write("INFO", message);
        public void Error(string message) => Write("ERROR", message);

        private static void Write(string level, string message)
        {
            Console.WriteLine($"{DateTime.UtcNow:O} {level} {message}");
        }

        public class Scope : IDisposable
        {
            public void Dispose() => Console.WriteLine("end");
        }
    }
}
