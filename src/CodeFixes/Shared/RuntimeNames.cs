using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Simplification;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>
/// Names of the runtime types the fixes write. Each is emitted qualified (<c>CoarseTimers.CoarseTimer</c>) with the
/// Simplifier and add-imports annotations: the code action's clean-up then adds <c>using CoarseTimers;</c> once, in the
/// file's own style (placement, sorting, file-scoped namespaces, global usings), and shortens the name where that binds
/// to the same type, leaving it qualified where a short name would clash.
/// </summary>
internal static class RuntimeNames
{
    public const string Namespace = "CoarseTimers";
    public const string CoarseTimer = "CoarseTimer";
    public const string CoarseCancellationTokenSource = "CoarseCancellationTokenSource";
    public const string SpinThenBlock = "SpinThenBlock";
    public const string CoarseTimeout = "CoarseTimeout";

    /// <summary>
    /// <c>CoarseTimers.T</c> as a type, or <c>global::CoarseTimers.T</c> when <c>CoarseTimers</c> would bind to something
    /// else at <paramref name="position"/>; annotated for import and simplification.
    /// </summary>
    public static TypeSyntax Type(string typeName, SemanticModel model, int position) =>
        Annotate(SyntaxFactory.ParseTypeName(QualifiedName(typeName, model, position)));

    /// <summary>
    /// <c>CoarseTimers.T.member</c> as an expression: parsed, so its shape is the one the compiler gives the same text
    /// (a member access, not a qualified type name); annotated as <see cref="Type"/>.
    /// </summary>
    public static MemberAccessExpressionSyntax StaticMember(string typeName, string member, SemanticModel model, int position) =>
        SyntaxFactory.MemberAccessExpression(
            SyntaxKind.SimpleMemberAccessExpression,
            Annotate(SyntaxFactory.ParseExpression(QualifiedName(typeName, model, position))),
            SyntaxFactory.IdentifierName(member));

    private static string QualifiedName(string typeName, SemanticModel model, int position)
    {
        var symbol = model.GetSpeculativeSymbolInfo(position, SyntaxFactory.IdentifierName(Namespace), SpeculativeBindingOption.BindAsTypeOrNamespace).Symbol;
        var bindsToRuntime = symbol is null or INamespaceSymbol { Name: Namespace, ContainingNamespace.IsGlobalNamespace: true };
        // As an expression (`CoarseTimers.CoarseTimer.Delay(5)`) the name also binds to a property, field, local or
        // parameter called CoarseTimers (a feature flag), which a type-or-namespace lookup does not see.
        foreach (var inScope in model.LookupSymbols(position, name: Namespace))
        {
            bindsToRuntime &= inScope is INamespaceSymbol { ContainingNamespace.IsGlobalNamespace: true };
        }

        return (bindsToRuntime ? "" : "global::") + Namespace + "." + typeName;
    }

    private static T Annotate<T>(T node)
        where T : SyntaxNode =>
        node.WithAdditionalAnnotations(Simplifier.Annotation, Simplifier.AddImportsAnnotation, Formatter.Annotation);
}
