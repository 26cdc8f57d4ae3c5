using System;
using System.Threading.Tasks;

namespace SampleService;

/// <summary>Sends with retries and a short constant pause: a timer per attempt, inside a loop.</summary>
internal sealed class RetryingSender
{
    private readonly Func<int, bool> _send;

    public RetryingSender(Func<int, bool> send) => _send = send;

    public int Attempts { get; private set; }

    public async Task<bool> SendAsync(int message)
    {
        for (var attempt = 1; attempt <= 3; attempt++)
        {
            Attempts++;
            if (_send(message))
            {
                return true;
            }

            await Task.Delay(TimeSpan.FromMilliseconds(5)).ConfigureAwait(false);
        }

        return false;
    }
}
