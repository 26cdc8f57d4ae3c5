using Microsoft.CodeAnalysis;

namespace CoarseTimers.Analyzers.Internals;

/// <summary>Symbol comparisons the rules and fixes share; every match is by symbol, never by name.</summary>
internal static class SymbolExtensions
{
    /// <summary>True when <paramref name="type"/> is <paramref name="known"/> (false when the compilation lacks it).</summary>
    public static bool Is(this ITypeSymbol? type, INamedTypeSymbol? known) =>
        type is not null && known is not null && SymbolEqualityComparer.Default.Equals(type, known);

    /// <summary>True when a base class of <paramref name="type"/> (not the type itself) is <paramref name="known"/>.</summary>
    public static bool InheritsFrom(this ITypeSymbol type, INamedTypeSymbol? known)
    {
        for (var current = type.BaseType; current is not null && known is not null; current = current.BaseType)
        {
            if (SymbolEqualityComparer.Default.Equals(current, known))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// True when a base class of <paramref name="type"/> is the type <paramref name="name"/> of the namespace
    /// <paramref name="containingNamespace"/> (by name, for a type of a package the compilation may not reference), or, with
    /// <paramref name="orUnresolved"/>, a type of that name the compilation cannot resolve.
    /// </summary>
    public static bool InheritsFromNamed(this ITypeSymbol type, string name, string containingNamespace, bool orUnresolved)
    {
        for (var current = type.BaseType; current is not null; current = current.BaseType)
        {
            if (current.Name == name && ((orUnresolved && current.TypeKind == TypeKind.Error) || current.ContainingNamespace?.ToDisplayString() == containingNamespace))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// True when <paramref name="type"/> implements the interface <paramref name="name"/> of the namespace
    /// <paramref name="containingNamespace"/>, or an interface of that name the compilation cannot resolve (by name, for an
    /// interface of a package the compilation may not reference; an unresolved first base-list entry stands as the base
    /// type, whether it names a class or an interface).
    /// </summary>
    public static bool ImplementsNamed(this INamedTypeSymbol type, string name, string containingNamespace)
    {
        if (type.BaseType is { TypeKind: TypeKind.Error } unresolved && unresolved.Name == name)
        {
            return true;
        }

        foreach (var contract in type.AllInterfaces)
        {
            if (contract.Name == name && (contract.TypeKind == TypeKind.Error || contract.ContainingNamespace?.ToDisplayString() == containingNamespace))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>True when <paramref name="type"/> is <paramref name="known"/> or derives from it.</summary>
    public static bool IsOrInheritsFrom(this ITypeSymbol type, INamedTypeSymbol? known) => type.Is(known) || type.InheritsFrom(known);

    /// <summary>
    /// True for types in <c>outer.inner</c> or a namespace below it (System.IO, System.Net.Http, ...). By name: a
    /// namespace symbol differs per assembly that contributes to it, so names are what identify it across references.
    /// </summary>
    public static bool IsInNamespace(this ITypeSymbol type, string outer, string inner)
    {
        INamespaceSymbol? second = null;
        INamespaceSymbol? first = null;
        for (var ns = type.ContainingNamespace; ns is { IsGlobalNamespace: false }; ns = ns.ContainingNamespace)
        {
            second = first;
            first = ns;
        }

        return first?.Name == outer && second?.Name == inner;
    }

    /// <summary>
    /// The symbol that calls of <paramref name="method"/> bind to: a partial method's or constructor's defining part (the
    /// implementing part, which holds the body, is a symbol of its own), as its original definition.
    /// </summary>
    public static IMethodSymbol CallTarget(this IMethodSymbol method) => (method.PartialDefinitionPart ?? method).OriginalDefinition;

    /// <summary>True when <paramref name="method"/> is the static or instance method <paramref name="name"/> declared by <paramref name="type"/>.</summary>
    public static bool IsMethodOf(this IMethodSymbol method, INamedTypeSymbol? type, string name) =>
        method.Name == name && method.ContainingType.Is(type);
}
