using System.Threading;
using CoarseTimers.Timing;
using Xunit;

namespace CoarseTimers.Tests;

/// <summary>The registration behind a linked source's link and a delay's cancellation, on every build and runtime.</summary>
public class ContextFreeRegistrationTests
{
    [Fact]
    public void Every_build_finds_a_registration_that_captures_no_context_on_this_runtime()
    {
        // .NET: UnsafeRegister; the netstandard build on .NET 10 binds it, on Mono the runtime's internal one.
        Assert.True(ContextFreeRegistration.SkipsContext);
    }

    [Fact]
    public void The_callback_runs_once_with_its_state_when_the_token_is_cancelled()
    {
        using var source = new CancellationTokenSource();
        var state = new object();
        object? seen = null;
        var runs = 0;
        using var registration = ContextFreeRegistration.Register(source.Token, s => { seen = s; runs++; }, state);

        source.Cancel();
        source.Cancel();

        Assert.Equal(1, runs);
        Assert.Same(state, seen);
    }

    [Fact]
    public void A_disposed_registration_never_runs()
    {
        using var source = new CancellationTokenSource();
        var runs = 0;
        var registration = ContextFreeRegistration.Register(source.Token, _ => runs++, null);

        registration.Dispose();
        source.Cancel();

        Assert.Equal(0, runs);
    }

    [Fact]
    public void The_callback_runs_in_the_cancellers_context_not_the_registrants()
    {
        var local = new AsyncLocal<string>();
        using var source = new CancellationTokenSource();
        string? seen = "not run";
        local.Value = "registrant";
        using var registration = ContextFreeRegistration.Register(source.Token, _ => seen = local.Value, null);
        local.Value = "canceller";

        source.Cancel();

        Assert.Equal("canceller", seen);
    }
}
