using System;
using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.Analyzers.Shared;

/// <summary>The hot-path rules a caller asks about (docs/hot-paths.md numbers them 1–5).</summary>
[Flags]
internal enum HotPathRules
{
    None = 0,

    /// <summary>Rule 1: inside the body of a loop of the same member.</summary>
    Loop = 1,

    /// <summary>Rule 2: inside a delegate passed as the per-item body of Parallel/List.ForEach/Select/SelectMany.</summary>
    PerItemDelegate = 2,

    /// <summary>Rule 3: the call is a per-operation timeout (the caller decides that it is one).</summary>
    PerOperationTimeout = 4,

    /// <summary>Rule 4: the member or a containing type carries a hot-path attribute.</summary>
    Declared = 8,

    /// <summary>Rules 1, 2 and 4: what every rule asks about (CT0001 and CT0002 add rule 3 where it applies).</summary>
    LoopsDelegatesDeclared = Loop | PerItemDelegate | Declared,
}

/// <summary>
/// Decides whether a call site is hot, and says why in words the diagnostic message shows. The model is documented in
/// docs/hot-paths.md; the tests follow it.
/// </summary>
internal static class HotPathModel
{
    public const string ScopeAll = "hot_path_scope = all";
    public const string Declared = "declared hot path";
    public const string InsideLoop = "inside a loop";
    public const string PerItemDelegate = "per-item delegate";
    public const string PerOperationTimeout = "per-operation timeout";

    private static readonly ImmutableHashSet<string> s_perItemParameters = ImmutableHashSet.Create("body", "action", "selector", "collectionSelector");

    /// <summary>
    /// The reason <paramref name="operation"/> is hot under <paramref name="rules"/>, or null when it is not.
    /// <paramref name="pacingMilliseconds"/> is the call's constant delay, if any: a loop paced by a delay at least
    /// <see cref="AnalyzerSettings.PacingThresholdMilliseconds"/> long is pacing, not a hot path.
    /// </summary>
    public static string? Reason(IOperation operation, ISymbol containingSymbol, KnownSymbols symbols, AnalyzerSettings settings, HotPathRules rules, double? pacingMilliseconds = null)
    {
        if (settings.Scope == HotPathScope.All)
        {
            return ScopeAll;
        }

        if ((rules & HotPathRules.Declared) != 0 && IsDeclaredHot(operation, containingSymbol, settings))
        {
            return Declared;
        }

        if (settings.Scope == HotPathScope.Declared || (symbols.IsTestProject && !settings.AnalyzeTestProjects))
        {
            return null;
        }

        var paced = pacingMilliseconds is double ms && ms >= settings.PacingThresholdMilliseconds;
        var insideFunction = false;
        var child = operation;
        for (var parent = operation.Parent; parent is not null; child = parent, parent = parent.Parent)
        {
            switch (parent)
            {
                case ILoopOperation loop when (rules & HotPathRules.Loop) != 0 && !paced && ReferenceEquals(loop.Body, child):
                    return InsideLoop;
                case IAnonymousFunctionOperation function:
                    insideFunction = true;
                    if ((rules & HotPathRules.PerItemDelegate) != 0 && IsPerItemBody(function, symbols))
                    {
                        return PerItemDelegate;
                    }

                    break;
                case ILocalFunctionOperation:
                    insideFunction = true;
                    break;
            }
        }

        if ((rules & HotPathRules.PerOperationTimeout) != 0 && settings.PerOperationTimeouts && !RunsOnce(containingSymbol, symbols, insideFunction))
        {
            return PerOperationTimeout;
        }

        return null;
    }

    /// <summary>The entry point and static constructors run once; lambdas and local functions inside them need not.</summary>
    private static bool RunsOnce(ISymbol containingSymbol, KnownSymbols symbols, bool insideFunction) =>
        !insideFunction && containingSymbol is IMethodSymbol method &&
        (method.MethodKind == MethodKind.StaticConstructor || SymbolEqualityComparer.Default.Equals(method, symbols.EntryPoint));

    private static bool IsPerItemBody(IAnonymousFunctionOperation function, KnownSymbols symbols)
    {
        var parent = function.Parent;
        while (parent is IDelegateCreationOperation or IConversionOperation)
        {
            parent = parent.Parent;
        }

        if (parent is not IArgumentOperation { Parameter: { } parameter, Parent: IInvocationOperation invocation } ||
            !s_perItemParameters.Contains(parameter.Name))
        {
            return false;
        }

        var method = invocation.TargetMethod;
        var type = method.ContainingType?.OriginalDefinition;
        return (SymbolEqualityComparer.Default.Equals(type, symbols.Parallel) && method.Name is "For" or "ForEach" or "ForEachAsync") ||
               (SymbolEqualityComparer.Default.Equals(type, symbols.List) && method.Name == "ForEach") ||
               (SymbolEqualityComparer.Default.Equals(type, symbols.Enumerable) && method.Name is "Select" or "SelectMany");
    }

    private static bool IsDeclaredHot(IOperation operation, ISymbol containingSymbol, AnalyzerSettings settings)
    {
        for (var parent = operation.Parent; parent is not null; parent = parent.Parent)
        {
            if (parent is ILocalFunctionOperation localFunction && HasHotPathAttribute(localFunction.Symbol, settings))
            {
                return true;
            }
        }

        for (var symbol = containingSymbol; symbol is not null and not INamespaceSymbol; symbol = symbol.ContainingSymbol)
        {
            if (HasHotPathAttribute(symbol, settings))
            {
                return true;
            }

            // An accessor inherits the mark of its property or event.
            if (symbol is IMethodSymbol { AssociatedSymbol: { } associated } && HasHotPathAttribute(associated, settings))
            {
                return true;
            }
        }

        return false;
    }

    private static bool HasHotPathAttribute(ISymbol symbol, AnalyzerSettings settings)
    {
        foreach (var attribute in symbol.GetAttributes())
        {
            var type = attribute.AttributeClass;
            if (type is null)
            {
                continue;
            }

            if (type.Name is "HotPathAttribute" or "HotPath")
            {
                return true;
            }

            foreach (var configured in settings.HotPathAttributes)
            {
                if (Matches(type, configured))
                {
                    return true;
                }
            }
        }

        return false;
    }

    private static bool Matches(INamedTypeSymbol type, string configured)
    {
        var name = configured.StartsWith("global::", StringComparison.Ordinal) ? configured.Substring(8) : configured;
        var full = type.ToDisplayString();
        return string.Equals(type.Name, name, StringComparison.Ordinal) ||
               string.Equals(type.Name, name + "Attribute", StringComparison.Ordinal) ||
               string.Equals(full, name, StringComparison.Ordinal) ||
               string.Equals(full, name + "Attribute", StringComparison.Ordinal);
    }
}
