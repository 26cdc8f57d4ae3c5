using System.Threading;

namespace CoarseTimers.Tests.Infrastructure;

/// <summary>Whether a token's callbacks run inside <c>Register</c>, on the caller's thread, as they do on a token already cancelled.</summary>
internal static class InlineRegistration
{
    /// <summary>Registers a callback on <paramref name="token"/>; true when it ran before <c>Register</c> returned.</summary>
    public static bool RunsInsideRegister(CancellationToken token)
    {
        var ranInline = false;
        var registering = true;
        token.Register(() => ranInline = registering);
        registering = false;
        return ranInline;
    }
}
