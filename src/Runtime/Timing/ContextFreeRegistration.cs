using System;
#if !NET
using System.Reflection;
#endif
using System.Threading;

namespace CoarseTimers.Timing;

/// <summary>
/// Registers an internal callback on a token without capturing the caller's <see cref="ExecutionContext"/>, as the
/// BCL does for its own (a linked source's link, <c>Task.Delay</c>'s cancellation). Such a callback only cancels a
/// source or completes a promise; what the user registered runs in its own context. On .NET it is
/// <c>CancellationToken.UnsafeRegister</c>. The netstandard2.0 build runs on .NET Framework and Mono, whose public
/// <c>Register</c> always captures (~16–30 ns on Mono 6.8, more on .NET Framework) while their own linked sources and
/// <c>Task.Delay</c> call the internal <c>InternalRegisterWithoutEC</c>: this calls that one too (or the public
/// <c>UnsafeRegister</c> when this build runs on .NET Core), bound once, and falls back to <c>Register</c> where a
/// runtime has neither (behaviour is the same either way; only the capture differs).
/// </summary>
internal static class ContextFreeRegistration
{
#if !NET
    private delegate CancellationTokenRegistration RegisterWithoutContext(ref CancellationToken token, Action<object?> callback, object? state);

    private static readonly RegisterWithoutContext? s_register = Bind();
#endif

    /// <summary>Whether registrations capture no context on this runtime (tests).</summary>
#if NET
    internal static bool SkipsContext => true;
#else
    internal static bool SkipsContext => s_register is not null;
#endif

    public static CancellationTokenRegistration Register(CancellationToken token, Action<object?> callback, object? state)
    {
#if NET
        return token.UnsafeRegister(callback, state);
#else
        return s_register is { } register ? register(ref token, callback, state) : token.Register(callback, state);
#endif
    }

#if !NET
    // .NET Core 3.0 and later (an app there may load this build): the public UnsafeRegister. .NET Framework and Mono:
    // the internal method their own linked sources and Task.Delay call. Neither: null, and Register captures.
    private static RegisterWithoutContext? Bind() =>
        Bind("UnsafeRegister", BindingFlags.Public) ?? Bind("InternalRegisterWithoutEC", BindingFlags.NonPublic);

    private static RegisterWithoutContext? Bind(string name, BindingFlags visibility)
    {
        try
        {
            var method = typeof(CancellationToken).GetMethod(
                name,
                BindingFlags.Instance | visibility,
                binder: null,
                new[] { typeof(Action<object>), typeof(object) },
                modifiers: null);
            return method is not null && method.ReturnType == typeof(CancellationTokenRegistration)
                ? (RegisterWithoutContext?)Delegate.CreateDelegate(typeof(RegisterWithoutContext), method, throwOnBindFailure: false)
                : null;
        }
        catch (Exception)
        {
            // Whatever a runtime throws here (no reflection, AOT, a security policy), Register still works: a failure in
            // this static initializer would break every linked source and cancellable delay instead.
            return null;
        }
    }
#endif
}
