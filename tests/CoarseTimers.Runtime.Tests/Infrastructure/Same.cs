using System;
using Xunit;

namespace CoarseTimers.Tests.Infrastructure;

/// <summary>Asserts that ours fails exactly as the BCL does: same exception type and parameter name, or neither throws.</summary>
internal static class Same
{
    public static void Outcome(Action bcl, Action ours)
    {
        var expected = Capture(bcl);
        var actual = Capture(ours);
        Assert.Equal(expected?.GetType(), actual?.GetType());
        Assert.Equal((expected as ArgumentException)?.ParamName, (actual as ArgumentException)?.ParamName);
    }

    private static Exception? Capture(Action action)
    {
        try
        {
            action();
            return null;
        }
        catch (Exception exception)
        {
            return exception;
        }
    }
}
