#!/usr/bin/env python3
"""Writes the generated C# project that build/measure-analyzers.sh compiles with and without the analyzers.

    python3 build/generate-load-project.py <folder> <files> <analyzer.dll> [--dense]

realistic (default): a server-shaped project. Most files are ordinary code (DTOs, validators, mappers, repositories,
request handlers with LINQ, loops, switch expressions, string formatting, try/catch); one file in 25 holds timer code,
as in real server libraries (MassTransit: 226 of 5,502 files name Task.Delay, a timeout source, a Timer or SpinUntil).
The timer sites are the shapes the rules judge (per-request timeout, WhenAny timeout, retry backoff, background loop,
re-armed source, timer in a start method, spin wait), and their methods are called from other files, so the cold-caller
search runs as it does on real code.
dense: every file is timer code (8 timer sites each, 5 flagged), the worst case for the analyzers.
"""
import os
import sys

HEADER = """using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Load.Area{area};
"""

ORDINARY = """
public sealed record Order{i}(int Id, string Customer, decimal Amount, DateTime Created, IReadOnlyList<string> Tags);

public interface IOrder{i}Repository
{{
    Task<Order{i}> FindAsync(int id, CancellationToken cancellationToken);
    Task SaveAsync(Order{i} order, CancellationToken cancellationToken);
}}

public sealed class Order{i}Service
{{
    private readonly IOrder{i}Repository _repository;
    private readonly ConcurrentDictionary<int, Order{i}> _cache = new();
    private readonly List<string> _audit = new();
    private int _handled;

    public Order{i}Service(IOrder{i}Repository repository) => _repository = repository ?? throw new ArgumentNullException(nameof(repository));

    public int Handled => _handled;

    public async Task<string> HandleAsync(int id, CancellationToken cancellationToken)
    {{
        if (!_cache.TryGetValue(id, out var order))
        {{
            order = await _repository.FindAsync(id, cancellationToken).ConfigureAwait(false);
            _cache[id] = order;
        }}

        var errors = Validate(order);
        if (errors.Count > 0)
        {{
            throw new InvalidOperationException(string.Join("; ", errors));
        }}

        Interlocked.Increment(ref _handled);
        {call}
        return Describe(order);
    }}

    public static List<string> Validate(Order{i} order)
    {{
        var errors = new List<string>();
        if (string.IsNullOrWhiteSpace(order.Customer)) errors.Add("customer is required");
        if (order.Amount <= 0) errors.Add($"amount {{order.Amount}} must be positive");
        foreach (var tag in order.Tags)
        {{
            if (tag.Length > 32) errors.Add($"tag '{{tag}}' is too long");
        }}

        return errors;
    }}

    public string Describe(Order{i} order)
    {{
        var size = order.Amount switch {{ < 10m => "small", < 1000m => "medium", _ => "large" }};
        var builder = new StringBuilder();
        builder.Append(order.Customer).Append(':').Append(size);
        for (var t = 0; t < order.Tags.Count; t++)
        {{
            builder.Append(t == 0 ? " [" : ", ").Append(order.Tags[t].ToUpperInvariant());
        }}

        return builder.Append(order.Tags.Count > 0 ? "]" : string.Empty).ToString();
    }}

    public IReadOnlyDictionary<string, decimal> Totals(IEnumerable<Order{i}> orders) =>
        orders.Where(o => o.Amount > 0)
              .GroupBy(o => o.Customer, StringComparer.OrdinalIgnoreCase)
              .ToDictionary(g => g.Key, g => g.Sum(o => o.Amount));

    public async Task SaveAllAsync(IEnumerable<Order{i}> orders, CancellationToken cancellationToken)
    {{
        foreach (var order in orders)
        {{
            try
            {{
                await _repository.SaveAsync(order, cancellationToken).ConfigureAwait(false);
                _cache[order.Id] = order;
            }}
            catch (InvalidOperationException ex)
            {{
                lock (_audit) _audit.Add($"{{order.Id}}: {{ex.Message}}");
            }}
        }}
    }}
}}
"""

# Timer shapes, one per timer file (rotating). {i} is the file number, {n} the class name.
TIMER = [
    # per-request timeout source (CT0002 rule 3)
    """
public sealed class {n}
{{
    public async Task<int> SendAsync(Func<CancellationToken, Task<int>> send, CancellationToken cancellationToken)
    {{
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, timeout.Token);
        return await send(linked.Token).ConfigureAwait(false);
    }}
}}
""",
    # WhenAny timeout (CT0001 rule 3)
    """
public sealed class {n}
{{
    public async Task<bool> WaitForReplyAsync(Task reply)
    {{
        var winner = await Task.WhenAny(reply, Task.Delay(TimeSpan.FromSeconds(5))).ConfigureAwait(false);
        return winner == reply;
    }}
}}
""",
    # retry with backoff in a catch loop (not hot)
    """
public sealed class {n}
{{
    public async Task<int> SendAsync(Func<Task<int>> send)
    {{
        for (var attempt = 1; ; attempt++)
        {{
            try
            {{
                return await send().ConfigureAwait(false);
            }}
            catch (TimeoutException) when (attempt < 5)
            {{
            }}

            await Task.Delay(TimeSpan.FromMilliseconds(100 * attempt)).ConfigureAwait(false);
        }}
    }}
}}
""",
    # background loop paced by a configured interval (pacing, not hot)
    """
public sealed class {n}
{{
    private readonly TimeSpan _interval = TimeSpan.FromSeconds(15);
    private int _ticks;

    public async Task RunAsync(CancellationToken stopping)
    {{
        while (!stopping.IsCancellationRequested)
        {{
            Interlocked.Increment(ref _ticks);
            await Task.Delay(_interval, stopping).ConfigureAwait(false);
        }}
    }}
}}
""",
    # reused source re-armed per call (CT0002 rule 3)
    """
public sealed class {n} : IDisposable
{{
    private readonly CancellationTokenSource _readTimeout = new();

    public async Task<int> ReadAsync(Func<CancellationToken, Task<int>> read)
    {{
        _readTimeout.CancelAfter(TimeSpan.FromSeconds(10));
        return await read(_readTimeout.Token).ConfigureAwait(false);
    }}

    public void Dispose() => _readTimeout.Dispose();
}}
""",
    # timer created in a start method (cold) and a short polling loop (CT0001 rule 1)
    """
public sealed class {n} : IDisposable
{{
    private Timer _timer;
    private volatile bool _ready;

    public void Start() => _timer = new Timer(_ => _ready = true, null, 1000, 1000);

    public async Task PollAsync(Func<bool> done)
    {{
        while (!done())
        {{
            await Task.Delay(5).ConfigureAwait(false);
        }}
    }}

    public bool WaitBriefly() => SpinWait.SpinUntil(() => _ready, 20);

    public void Dispose() => _timer?.Dispose();
}}
""",
]

TIMER_CALLS = [
    "await new {n}().SendAsync(_ => Task.FromResult(1), cancellationToken).ConfigureAwait(false);",
    "await new {n}().WaitForReplyAsync(Task.CompletedTask).ConfigureAwait(false);",
    "await new {n}().SendAsync(() => Task.FromResult(1)).ConfigureAwait(false);",
    "_ = new {n}().RunAsync(cancellationToken);",
    "using (var reader = new {n}()) await reader.ReadAsync(_ => Task.FromResult(1)).ConfigureAwait(false);",
    "await new {n}().PollAsync(() => true).ConfigureAwait(false);",
]

DENSE = """
public sealed class Service{i}
{{
    private readonly List<int> _items = new() {{ 1, 2, 3 }};
    private volatile bool _ready;

    public async Task<int> HandleAsync(Task work, CancellationToken stopping)
    {{
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(stopping, timeout.Token);
        var winner = await Task.WhenAny(work, Task.Delay(TimeSpan.FromSeconds(5), linked.Token));
        var total = 0;
        for (var attempt = 0; attempt < 3; attempt++)
        {{
            total += attempt;
            await Task.Delay(10 * attempt);
        }}

        linked.CancelAfter(1000);
        total += _items.Select(x => x * 2).Where(x => x > 2).Sum();
        return winner == work ? total : -total;
    }}

    public bool Wait() => SpinWait.SpinUntil(() => _ready, 50);

    public IDisposable Arm() => new Timer(_ => {{ }}, null, 1000, Timeout.Infinite);

    public async Task PollAsync(CancellationToken stopping)
    {{
        while (!stopping.IsCancellationRequested)
        {{
            await Task.Delay(TimeSpan.FromSeconds(30), stopping);
        }}
    }}

    public string Describe(int value) => value switch {{ 0 => "zero", < 0 => "negative", _ => value.ToString() }};
}}
"""

TIMER_EVERY = 25


def main():
    folder, files, analyzer = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    dense = "--dense" in sys.argv[4:]
    os.makedirs(os.path.join(folder, "src"), exist_ok=True)
    with open(os.path.join(folder, "Load.csproj"), "w") as f:
        f.write(f"""<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net10.0</TargetFramework><Nullable>disable</Nullable><ImplicitUsings>disable</ImplicitUsings><NoWarn>CS1998;CS0169</NoWarn></PropertyGroup>
  <ItemGroup Condition="'$(WithCoarseTimers)' != 'false'"><Analyzer Include="{analyzer}" /></ItemGroup>
</Project>
""")
    timer_files = 0
    for i in range(1, files + 1):
        area = i % 50
        text = HEADER.format(area=area)
        if dense:
            text += DENSE.format(i=i)
        else:
            call = ""
            # Each handler of the file after a timer file calls that file's timer code (a real caller, another file).
            prev = i - 1
            if prev >= 1 and prev % TIMER_EVERY == 0:
                kind = (prev // TIMER_EVERY) % len(TIMER)
                call = TIMER_CALLS[kind].format(n=f"Load.Area{prev % 50}.Timed{prev}")
            text += ORDINARY.format(i=i, call=call)
            if i % TIMER_EVERY == 0:
                kind = (i // TIMER_EVERY) % len(TIMER)
                text += TIMER[kind].format(n=f"Timed{i}")
                timer_files += 1
        with open(os.path.join(folder, "src", f"File{i}.cs"), "w") as f:
            f.write(text)
    print(f"generated {files} files ({'dense: every file timer code' if dense else f'realistic: {timer_files} with timer code'})")


if __name__ == "__main__":
    main()
