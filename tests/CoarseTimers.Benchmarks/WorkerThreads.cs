using System;
using System.Threading;

namespace CoarseTimers.Benchmarks;

/// <summary>
/// Dedicated threads kept alive across benchmark invocations and released together, so each invocation measures
/// <c>count</c> threads hammering the timer at once (oversubscribed past the core count on purpose: that is where lock
/// convoys show) without paying thread start-up inside the measurement.
/// </summary>
internal sealed class WorkerThreads : IDisposable
{
    private readonly Thread[] _threads;
    private readonly Barrier _start;
    private readonly CountdownEvent _done;
    private Action<int>? _work;
    private volatile bool _stopping;

    public WorkerThreads(int count)
    {
        _start = new Barrier(count + 1);
        _done = new CountdownEvent(count);
        _threads = new Thread[count];
        for (var i = 0; i < count; i++)
        {
            var index = i;
            _threads[i] = new Thread(() => Loop(index)) { IsBackground = true, Name = "bench-worker-" + i };
            _threads[i].Start();
        }
    }

    /// <summary>Runs <paramref name="work"/> on every thread at once and returns when all have finished.</summary>
    public void Run(Action<int> work)
    {
        _work = work;
        _done.Reset();
        _start.SignalAndWait();
        _done.Wait();
    }

    public void Dispose()
    {
        _stopping = true;
        _start.SignalAndWait();
        foreach (var thread in _threads)
        {
            thread.Join();
        }
    }

    private void Loop(int index)
    {
        while (true)
        {
            _start.SignalAndWait();
            if (_stopping)
            {
                return;
            }

            _work!(index);
            _done.Signal();
        }
    }
}
