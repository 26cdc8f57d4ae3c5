using System;
using System.Threading;
using CoarseTimers.Analyzers.Internals;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Shared;

/// <summary>
/// Whether the objects of a type are created per operation: a distributed lock per acquire, a fetched job per dequeue, a
/// heartbeat per execution. A timer such an object holds in a field is created per operation and, disposed with its
/// object, usually does not fire, whatever its period (a keep-alive ticking every minute on a lock held for
/// milliseconds). The evidence is where the compilation creates the type, read from its constructors' call sites
/// (<see cref="ColdCallers.Calls"/>): every one is a <c>new T(...)</c> scoped to one run of the code that made it (a
/// local that code disposes, or the result of a factory method whose every caller does so: <see cref="CreationReason"/>),
/// that code is itself per operation (hot-path rules 1–4 with rule 3's reading of an ordinary method, no cold evidence),
/// and there is at least one. An object the creator keeps or hands on (a service a builder returns, a state stored in a
/// field, an agent passed to a host) may live as long as its owner, and its timer paces: it is not read as per operation.
/// Cost: asked only for a timer held by an instance field that no other rule flags; the call sites are memoised.
/// </summary>
internal static class PerOperationObject
{
    /// <summary>
    /// Why every object of <paramref name="type"/> is created per operation (the first creating member's reason), or
    /// null when some creation is not, or none is seen.
    /// </summary>
    public static string? Reason(INamedTypeSymbol type, KnownSymbols symbols, Func<SyntaxTree, AnalyzerSettings> settings, CancellationToken cancellationToken)
    {
        if (type.IsStatic || type.IsAbstract || type.TypeKind != TypeKind.Class)
        {
            return null;
        }

        string? first = null;
        foreach (var constructor in type.InstanceConstructors)
        {
            if (constructor.IsImplicitlyDeclared && type.IsRecord && IsCopyConstructor(constructor, type))
            {
                // A record's copy constructor (`with`): the copy shares the original's timer, it creates none.
                continue;
            }

            if (constructor.IsImplicitlyDeclared)
            {
                // `new T()` of a type with no declared constructor: the call sites cannot be listed cheaply.
                return null;
            }

            var calls = symbols.Callers.Calls(constructor, cancellationToken);
            if (calls.IsDefault)
            {
                return null;
            }

            foreach (var call in calls)
            {
                if (call.Syntax is ConstructorInitializerSyntax { ThisOrBaseKeyword.RawKind: (int)SyntaxKind.ThisKeyword })
                {
                    // `this(...)`: the chaining constructor's own creations are read with it.
                    continue;
                }

                var why = CreationReason(call, symbols, settings, cancellationToken);
                if (why is null)
                {
                    return null;
                }

                first ??= why;
            }
        }

        return first;
    }

    /// <summary>
    /// The creation is scoped to one run of hot code: a local its creator disposes (<c>using var x = new T()</c>,
    /// <c>using (new T()) { }</c>, <c>x.Dispose()</c>), or returned by a factory method whose every call site scopes the
    /// result that way (<c>using var heartbeat = factory.CreateHeartbeat(context)</c>). The reason is the member that
    /// holds the scope.
    /// </summary>
    private static string? CreationReason(IOperation call, KnownSymbols symbols, Func<SyntaxTree, AnalyzerSettings> settings, CancellationToken cancellationToken)
    {
        if (call is not IObjectCreationOperation creation)
        {
            return null;
        }

        if (IsScoped(creation))
        {
            return ScopeReason(creation, symbols, settings, cancellationToken);
        }

        if (!TimerLifetime.IsReturned(creation) || Creator(creation, cancellationToken) is not { MethodKind: MethodKind.Ordinary } factory)
        {
            return null;
        }

        var calls = symbols.Callers.Calls(factory, cancellationToken);
        if (calls.IsDefault)
        {
            return null;
        }

        string? first = null;
        foreach (var factoryCall in calls)
        {
            var result = Awaited(factoryCall);
            var why = IsScoped(result) ? ScopeReason(result, symbols, settings, cancellationToken) : null;
            if (why is null)
            {
                return null;
            }

            first ??= why;
        }

        return first;
    }

    // `await factory.CreateAsync(...)`, also `.ConfigureAwait(false)`: the awaited result, else the call itself.
    private static IOperation Awaited(IOperation call)
    {
        var result = call;
        if (result.Parent is IInvocationOperation { TargetMethod.Name: "ConfigureAwait" } configure && ReferenceEquals(configure.Instance, result))
        {
            result = configure;
        }

        return result.Parent is IAwaitOperation awaited ? awaited : call;
    }

    private static bool IsCopyConstructor(IMethodSymbol constructor, INamedTypeSymbol type) =>
        constructor.Parameters.Length == 1 && SymbolEqualityComparer.Default.Equals(constructor.Parameters[0].Type, type);

    private static bool IsScoped(IOperation value) =>
        value.ConsumerSkippingConversions() is IUsingOperation ||
        Storage.Of(value) is ILocalSymbol local && TimerLifetime.IsDisposedByCreator(value, local);

    /// <summary>The member holding the scope, when it runs per operation (hot-path rules 1–4, rule 3 reading an ordinary method).</summary>
    private static string? ScopeReason(IOperation scoped, KnownSymbols symbols, Func<SyntaxTree, AnalyzerSettings> settings, CancellationToken cancellationToken)
    {
        if (Creator(scoped, cancellationToken) is not { MethodKind: not (MethodKind.Constructor or MethodKind.StaticConstructor) } creator)
        {
            return null;
        }

        return HotPathModel.Reason(scoped, creator, symbols, settings(scoped.Syntax.SyntaxTree),
            HotPathRules.LoopsDelegatesDeclared | HotPathRules.PerOperationTimeout, cancellationToken: cancellationToken) is null
            ? null
            : creator.Name;
    }

    private static IMethodSymbol? Creator(IOperation operation, CancellationToken cancellationToken) =>
        operation.SemanticModel?.GetEnclosingSymbol(operation.Syntax.SpanStart, cancellationToken) as IMethodSymbol;
}
