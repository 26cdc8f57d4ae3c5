using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Analyzers.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Simplification;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>
/// Adds <c>using CoarseTimers;</c> for the names a fix wrote, but only when no name already in the file changes what it
/// binds to. A file that uses its own <c>HotPathAttribute</c> as <c>[HotPath]</c> (or its own <c>CoarseTimer</c>, ...)
/// through a using directive or a global using would otherwise get an ambiguous reference (CS0104); there the import is
/// left out and the fix's names stay qualified, as <see cref="RuntimeNames"/> wrote them. Where the usings hold
/// <c>#if</c> blocks, <see cref="ImportPlacement"/> decides where the directive goes, or that it goes nowhere.
/// </summary>
internal static class SafeImports
{
    public static async Task<Document> AddAsync(Document document, CancellationToken cancellationToken)
    {
        var imported = await ImportAdder.AddImportsAsync(document, Simplifier.AddImportsAnnotation, cancellationToken: cancellationToken).ConfigureAwait(false);
        if (imported == document)
        {
            return document;
        }

        // Usings split by #if blocks: a place every configuration compiles, the same from every target, or none.
        if (await ImportPlacement.PlaceAsync(document, imported, RuntimeNames.Namespace, cancellationToken).ConfigureAwait(false) is not { } placed)
        {
            return document;
        }

        imported = placed;

        var before = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        var after = await imported.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        if (before is null || after is null)
        {
            return document;
        }

        // Only names the new directive can bring into scope can change binding: the namespace's type names (attribute
        // names also without their suffix) and its extension methods.
        var imports = ImportedNames(before.Compilation);
        if (imports.Count == 0)
        {
            return imported;
        }

        var oldNames = NamesIn(before, imports, cancellationToken);
        var newNames = NamesIn(after, imports, cancellationToken);
        if (oldNames.Count != newNames.Count)
        {
            return document;
        }

        for (var i = 0; i < oldNames.Count; i++)
        {
            if (Binding(before, oldNames[i], cancellationToken) != Binding(after, newNames[i], cancellationToken))
            {
                return document;
            }
        }

        return imported;
    }

    /// <summary>Whether <paramref name="document"/> has a <c>using CoarseTimers;</c> directive (a global one too).</summary>
    public static async Task<bool> StillImportsAsync(Document document, CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        return root is not null && root.DescendantNodes(n => n is CompilationUnitSyntax or BaseNamespaceDeclarationSyntax or UsingDirectiveSyntax)
            .OfType<UsingDirectiveSyntax>()
            .Any(u => u.Alias is null && u.StaticKeyword.IsKind(SyntaxKind.None) && u.Name?.ToString() == RuntimeNames.Namespace);
    }

    private static HashSet<string> ImportedNames(Compilation compilation)
    {
        var names = new HashSet<string>();
        // The namespace as the compilation sees it (every assembly's types in it, the user's too), found from the runtime's type.
        var runtimeNamespace = KnownSymbols.For(compilation).CoarseTimer?.ContainingNamespace;
        var runtime = runtimeNamespace is null ? null : compilation.GetCompilationNamespace(runtimeNamespace);
        foreach (var type in runtime is null ? System.Collections.Immutable.ImmutableArray<INamedTypeSymbol>.Empty : runtime.GetTypeMembers())
        {
            names.Add(type.Name);
            const string Suffix = "Attribute";
            if (type.Name.Length > Suffix.Length && type.Name.EndsWith(Suffix, System.StringComparison.Ordinal))
            {
                names.Add(type.Name.Substring(0, type.Name.Length - Suffix.Length));
            }

            if (type.MightContainExtensionMethods)
            {
                names.UnionWith(type.GetMembers().OfType<IMethodSymbol>().Where(m => m.IsExtensionMethod).Select(m => m.Name));
            }
        }

        return names;
    }

    /// <summary>The simple names in the document (outside using directives) that <paramref name="imports"/> could capture, in document order.</summary>
    private static List<SimpleNameSyntax> NamesIn(SemanticModel model, HashSet<string> imports, CancellationToken cancellationToken) =>
        model.SyntaxTree.GetRoot(cancellationToken).DescendantNodes(n => n is not UsingDirectiveSyntax)
            .OfType<SimpleNameSyntax>()
            .Where(n => imports.Contains(n.Identifier.ValueText))
            .ToList();

    /// <summary>What <paramref name="name"/> binds to, as text comparable across the two compilations (source symbols differ per compilation).</summary>
    private static string Binding(SemanticModel model, SimpleNameSyntax name, CancellationToken cancellationToken)
    {
        var info = model.GetSymbolInfo(name, cancellationToken);
        var symbol = info.Symbol ?? info.CandidateSymbols.FirstOrDefault();
        return symbol is null
            ? info.CandidateReason.ToString()
            : info.CandidateReason + " " + symbol.Kind + " " + symbol.ContainingAssembly?.Name + " " + symbol.ToDisplayString(SymbolDisplayFormat.FullyQualifiedFormat);
    }
}
