using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace SampleService;

/// <summary>
/// A small service run through a fixed script of work. It prints a summary that depends only on what happened, not
/// on timing, so the output before and after the CoarseTimers fixes can be compared line by line.
/// </summary>
internal static class Program
{
    private static async Task<int> Main()
    {
        // Cold code: runs once at start-up. The analyzers must leave all of it alone.
        using var shutdown = new CancellationTokenSource(TimeSpan.FromMinutes(5));
        await Task.Delay(1).ConfigureAwait(false);
        var housekeeping = RunHousekeepingAsync(shutdown.Token);

        var handler = new RequestHandler(TimeSpan.FromMilliseconds(50));
        var completed = 0;
        var timedOut = 0;
        for (var request = 0; request < 12; request++)
        {
            // Every fourth request hangs and must time out; the others complete at once.
            var work = request % 4 == 3 ? new TaskCompletionSource().Task : Task.CompletedTask;
            var ok = request % 2 == 0
                ? await handler.HandleAsync(work, shutdown.Token).ConfigureAwait(false)
                : await handler.HandleWithDeadlineAsync(work, shutdown.Token).ConfigureAwait(false);
            if (ok)
            {
                completed++;
            }
            else
            {
                timedOut++;
            }
        }

        var tenants = new TenantGate(TimeSpan.FromMilliseconds(50));
        using var callerLeft = new CancellationTokenSource();
        using var quotaSpent = new CancellationTokenSource();
        var admitted = 0;
        for (var call = 0; call < 4; call++)
        {
            // The last call hangs and must run into the limit.
            var work = call == 3 ? new TaskCompletionSource().Task : Task.CompletedTask;
            admitted += await tenants.AdmitAsync(work, shutdown.Token, callerLeft.Token, quotaSpent.Token).ConfigureAwait(false) ? 1 : 0;
            admitted += await tenants.AdmitPairAsync(work, shutdown.Token, callerLeft.Token).ConfigureAwait(false) ? 1 : 0;
            admitted += await tenants.RaceAsync(work, new TaskCompletionSource().Task).ConfigureAwait(false) ? 1 : 0;
        }

        var failuresLeft = new Dictionary<int, int> { [1] = 0, [2] = 1, [3] = 2, [4] = 5 };
        var sender = new RetryingSender(message => failuresLeft[message]-- <= 0);
        var delivered = 0;
        for (var message = 1; message <= 4; message++)
        {
            if (await sender.SendAsync(message).ConfigureAwait(false))
            {
                delivered++;
            }
        }

        var connections = new List<Connection>();
        for (var id = 0; id < 3; id++)
        {
            connections.Add(new Connection(id));
        }

        var touched = 0;
        foreach (var connection in connections)
        {
            touched += connection.Touch() ? 1 : 0;
            connection.Dispose();
        }

        var gate = new ReadinessGate();
        gate.MarkReadySoon();
        var ready = true;
        for (var batch = 0; batch < 3; batch++)
        {
            // Each batch of work first waits until the backend is up: one wait per batch.
            ready &= gate.WaitForBackend();
        }

        shutdown.Cancel();
        await housekeeping.ConfigureAwait(false);

        Console.WriteLine($"requests: {completed} completed, {timedOut} timed out");
        Console.WriteLine($"tenant calls: {admitted} of 12 finished within the limit");
        Console.WriteLine($"messages: {delivered} of 4 delivered in {sender.Attempts} attempts");
        Console.WriteLine($"connections: {connections.Count} opened, {touched} keep-alives postponed, all closed");
        Console.WriteLine($"backend ready: {ready}");
        return 0;
    }

    /// <summary>A background loop paced every 30 s: one timer per period is pacing, not a hot path.</summary>
    private static async Task RunHousekeepingAsync(CancellationToken stopping)
    {
        while (!stopping.IsCancellationRequested)
        {
            try
            {
                await Task.Delay(TimeSpan.FromSeconds(30), stopping).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }
}
