using System;
using System.Threading;

namespace SampleService;

/// <summary>A client connection with its own keep-alive timer: one timer per connection.</summary>
[HotPath]
internal sealed class Connection : IDisposable
{
    private readonly Timer _keepAlive;
    private int _pings;

    public Connection(int id)
    {
        Id = id;
        _keepAlive = new Timer(_ => Interlocked.Increment(ref _pings), null, TimeSpan.FromMinutes(1), TimeSpan.FromMinutes(1));
    }

    public int Id { get; }

    /// <summary>Postpones the keep-alive after traffic, as a server does on every message.</summary>
    public bool Touch() => _keepAlive.Change(TimeSpan.FromMinutes(1), TimeSpan.FromMinutes(1));

    public void Dispose() => _keepAlive.Dispose();
}
