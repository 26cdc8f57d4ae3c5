using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using CoarseTimers.Analyzers.Internals;
using CoarseTimers.Analyzers.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.CodeFixes.Shared;

/// <summary>
/// How the local, field or property that holds a created object (<see cref="Storage.Of"/> finds it) is used, and
/// whether changing its type is safe: every reference to the local, private field or private property (or a field or
/// property of a private nested type) must be visible in this document and use it only in ways the runtime type also
/// supports. Anything else (passed on, returned, compared by type, assigned elsewhere) means no fix.
/// </summary>
internal sealed class StorageAnalysis
{
    private StorageAnalysis(ITypeSymbol? storageType, TypeSyntax? declaredType, IReadOnlyList<IdentifierNameSyntax> references, IReadOnlyList<ExpressionSyntax> assignedValues)
    {
        StorageType = storageType;
        DeclaredType = declaredType;
        References = references;
        AssignedValues = assignedValues;
    }

    /// <summary>The type the storage is declared with (the BCL type the rewrite replaces).</summary>
    public ITypeSymbol? StorageType { get; }

    /// <summary>The declaration's type syntax (<c>var</c> included), or null when the storage has none in this document.</summary>
    public TypeSyntax? DeclaredType { get; }

    public IReadOnlyList<IdentifierNameSyntax> References { get; }

    /// <summary>Every value stored in it: the initializer and the right-hand sides of assignments.</summary>
    public IReadOnlyList<ExpressionSyntax> AssignedValues { get; }

    /// <summary>
    /// Analyzes every use of <paramref name="symbol"/> (a local, or a private field/property whose type is declared
    /// wholly in this document). Null when it cannot be analyzed here.
    /// </summary>
    public static StorageAnalysis? Analyze(ISymbol symbol, SemanticModel model, CancellationToken cancellationToken)
    {
        SyntaxNode? scope;
        TypeSyntax? declaredType = null;
        var values = new List<ExpressionSyntax>();
        switch (symbol)
        {
            case ILocalSymbol local:
                var declarator = local.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax(cancellationToken) as VariableDeclaratorSyntax;
                if (declarator?.Parent is not VariableDeclarationSyntax { Variables.Count: 1 } declaration || declarator.SyntaxTree != model.SyntaxTree)
                {
                    return null;
                }

                declaredType = declaration.Type;
                if (declarator.Initializer is { } localInitializer)
                {
                    values.Add(localInitializer.Value);
                }

                scope = FunctionOf(declarator);
                break;
            case IFieldSymbol { IsImplicitlyDeclared: false } field when AccessScope(field, model, cancellationToken) is { } fieldScope:
                if (field.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax(cancellationToken) is not VariableDeclaratorSyntax { Parent: VariableDeclarationSyntax { Variables.Count: 1 } fieldDeclaration } fieldDeclarator ||
                    fieldDeclarator.SyntaxTree != model.SyntaxTree)
                {
                    return null;
                }

                declaredType = fieldDeclaration.Type;
                if (fieldDeclarator.Initializer is { } fieldInitializer)
                {
                    values.Add(fieldInitializer.Value);
                }

                scope = fieldScope;
                break;
            // An explicit interface implementation is private too, but its type is the interface's: it cannot be retyped.
            case IPropertySymbol { ExplicitInterfaceImplementations.IsEmpty: true, IsVirtual: false, IsOverride: false, IsAbstract: false } property
                when !ImplementsAnInterface(property) && AccessScope(property, model, cancellationToken) is { } propertyScope:
                // One declaration: a partial property's two parts must keep one type, and only one would be retyped.
                if (property.DeclaringSyntaxReferences.Length != 1 ||
                    property.DeclaringSyntaxReferences[0].GetSyntax(cancellationToken) is not PropertyDeclarationSyntax propertyDeclaration ||
                    propertyDeclaration.Modifiers.Any(SyntaxKind.PartialKeyword) ||
                    propertyDeclaration.SyntaxTree != model.SyntaxTree || propertyDeclaration.AccessorList is null ||
                    propertyDeclaration.AccessorList.Accessors.Any(a => a.Body is not null || a.ExpressionBody is not null))
                {
                    return null;
                }

                declaredType = propertyDeclaration.Type;
                if (propertyDeclaration.Initializer is { } propertyInitializer)
                {
                    values.Add(propertyInitializer.Value);
                }

                scope = propertyScope;
                break;
            default:
                return null;
        }

        // Code in an inactive #if branch (another target framework of a multi-targeted project) is not bound: a use of
        // the storage there cannot be checked, and a retyped declaration could break that target's build. For a field or
        // property the whole file is read: a partial part of its type may sit wholly in an inactive branch.
        if (scope is null || ConditionalCode.IsNamedInInactiveCode(symbol is ILocalSymbol ? scope : scope.SyntaxTree.GetRoot(cancellationToken), symbol.Name))
        {
            return null;
        }

        var references = new List<IdentifierNameSyntax>();
        // By original definition (SymbolReferences): `other._timer` on another instantiation of a generic type is a use the
        // rewrite must see.
        foreach (var identifier in SymbolReferences.Within(scope, symbol, model, cancellationToken))
        {
            references.Add(identifier);
            if (Storage.AssignedValue(identifier) is { } assigned)
            {
                values.Add(assigned);
            }
        }

        return new StorageAnalysis(Storage.TypeOf(symbol), declaredType, references, values);
    }

    /// <summary>
    /// The body <paramref name="node"/> runs in: the nearest lambda, local function, method or accessor, or the file's
    /// top-level statements (one body, though each is its own <c>GlobalStatementSyntax</c>).
    /// </summary>
    public static SyntaxNode? FunctionOf(SyntaxNode node)
    {
        var function = node.FirstAncestorOrSelf<SyntaxNode>(n => n is BaseMethodDeclarationSyntax or AccessorDeclarationSyntax or LocalFunctionStatementSyntax or AnonymousFunctionExpressionSyntax or GlobalStatementSyntax or CompilationUnitSyntax);
        return function is GlobalStatementSyntax ? function.Parent : function;
    }

    /// <summary>The same analysis without one reference (the site a rewrite removes).</summary>
    public StorageAnalysis WithoutReference(SyntaxNode reference) =>
        new(StorageType, DeclaredType, References.Where(r => r != reference).ToList(), AssignedValues);

    /// <summary>
    /// True when every reference only uses members on it that <paramref name="allowedMember"/> accepts (never an
    /// extension method, which would see it as its parameter's type), disposes it,
    /// compares it with null, assigns it in a statement of its own (<c>=</c> or <c>??=</c>), keeps it alive with <c>GC.KeepAlive</c>, or converts
    /// it to a type <paramref name="allowedConversion"/> accepts: uses that compile and behave the same with the runtime
    /// type. A chained assignment (<c>a = b = new T()</c>) hands the value on, so it is not one of them.
    /// </summary>
    public bool UsedOnlyThrough(Func<ISymbol, bool> allowedMember, Func<ITypeSymbol?, bool> allowedConversion, KnownSymbols symbols, SemanticModel model, CancellationToken cancellationToken)
    {
        foreach (var reference in References)
        {
            // `this.x`, `other.x` and `other?.x` are each one use of the storage: the receiver says which instance.
            SyntaxNode expression = reference.Parent switch
            {
                MemberAccessExpressionSyntax access when access.Name == reference => access,
                MemberBindingExpressionSyntax binding when binding.Name == reference => binding,
                _ => reference,
            };

            switch (expression.Parent)
            {
                case MemberAccessExpressionSyntax access when access.Expression == expression && IsAllowed(access.Name):
                case ConditionalAccessExpressionSyntax conditional when conditional.Expression == expression &&
                    conditional.WhenNotNull is InvocationExpressionSyntax { Expression: MemberBindingExpressionSyntax binding } && IsAllowed(binding.Name):
                case AssignmentExpressionSyntax assignment when assignment.Left == expression &&
                    (assignment.IsKind(SyntaxKind.SimpleAssignmentExpression) || assignment.IsKind(SyntaxKind.CoalesceAssignmentExpression)) &&
                    model.GetOperation(assignment, cancellationToken)?.Parent is IExpressionStatementOperation:
                case BinaryExpressionSyntax binary when (binary.IsKind(SyntaxKind.EqualsExpression) || binary.IsKind(SyntaxKind.NotEqualsExpression)) && (IsNull(binary.Left) || IsNull(binary.Right)):
                case IsPatternExpressionSyntax { Pattern: ConstantPatternSyntax constant } when IsNull(constant.Expression):
                case IsPatternExpressionSyntax { Pattern: UnaryPatternSyntax { Pattern: ConstantPatternSyntax notConstant } } when IsNull(notConstant.Expression):
                case UsingStatementSyntax:
                case ArgumentSyntax { Parent.Parent: InvocationExpressionSyntax nameOf } when model.GetOperation(nameOf, cancellationToken) is INameOfOperation:
                case ArgumentSyntax { RefKindKeyword.RawKind: (int)SyntaxKind.None, Parent.Parent: InvocationExpressionSyntax keepAlive } when IsGcKeepAlive(keepAlive, symbols, model, cancellationToken):
                    continue;
                case ExpressionSyntax or ArgumentSyntax or EqualsValueClauseSyntax or ArrowExpressionClauseSyntax or ReturnStatementSyntax
                    when model.GetTypeInfo((ExpressionSyntax)expression, cancellationToken) is var info && !SymbolEqualityComparer.Default.Equals(info.Type, info.ConvertedType) &&
                         allowedConversion(info.ConvertedType):
                    continue;
                default:
                    return false;
            }
        }

        return true;

        // A member of the storage's own type or one it derives from: never an extension (an extension method, or a
        // member of a C# 14 extension block, which sees the receiver as its declared type), nor a member of object that
        // tells the type apart (GetType, ToString).
        bool IsAllowed(SimpleNameSyntax member) =>
            model.GetSymbolInfo(member, cancellationToken).Symbol is { } symbol &&
            symbol is not IMethodSymbol { MethodKind: MethodKind.ReducedExtension } &&
            symbol is not IMethodSymbol { Name: nameof(GetType) or nameof(ToString), ContainingType.SpecialType: SpecialType.System_Object } &&
            IsDeclaredBy(symbol.ContainingType, StorageType) &&
            allowedMember(symbol);
    }

    // `owner` is the storage's type, a base type of it or an interface it implements: a member its own instances have.
    private static bool IsDeclaredBy(INamedTypeSymbol? owner, ITypeSymbol? storageType)
    {
        if (owner is null || storageType is null)
        {
            return false;
        }

        for (var type = storageType; type is not null; type = type.BaseType)
        {
            if (SymbolEqualityComparer.Default.Equals(type.OriginalDefinition, owner.OriginalDefinition))
            {
                return true;
            }
        }

        return storageType.AllInterfaces.Any(face => SymbolEqualityComparer.Default.Equals(face.OriginalDefinition, owner.OriginalDefinition));
    }

    private static bool IsGcKeepAlive(InvocationExpressionSyntax invocation, KnownSymbols symbols, SemanticModel model, CancellationToken cancellationToken) =>
        model.GetSymbolInfo(invocation, cancellationToken).Symbol is IMethodSymbol method && method.IsMethodOf(symbols.GC, "KeepAlive");

    private static bool IsNull(ExpressionSyntax expression) => expression.IsKind(SyntaxKind.NullLiteralExpression);

    /// <summary>
    /// The declaration every reference to <paramref name="member"/> must sit in: its type's, for a private member; for
    /// any other member of a private nested type (<c>private sealed class Batch { public Timer FlushTimer { get; set; } }</c>),
    /// the declaration of the type that nests it, since nothing outside can name the nested type. Null when code the
    /// document does not hold could reach it.
    /// </summary>
    private static SyntaxNode? AccessScope(ISymbol member, SemanticModel model, CancellationToken cancellationToken)
    {
        if (member.DeclaredAccessibility == Accessibility.Private)
        {
            return TypeScope(member.ContainingType, model, cancellationToken);
        }

        for (var type = member.ContainingType; type is not null; type = type.ContainingType)
        {
            if (type.DeclaredAccessibility == Accessibility.Private && type.ContainingType is { } outer)
            {
                return TypeScope(outer, model, cancellationToken);
            }
        }

        return null;
    }

    // A public property of a nested type may still implement an interface member, whose type a rewrite cannot change.
    private static bool ImplementsAnInterface(IPropertySymbol property)
    {
        foreach (var contract in property.ContainingType.AllInterfaces)
        {
            foreach (var candidate in contract.GetMembers(property.Name))
            {
                if (SymbolEqualityComparer.Default.Equals(property.ContainingType.FindImplementationForInterfaceMember(candidate), property))
                {
                    return true;
                }
            }
        }

        return false;
    }

    /// <summary>
    /// The type's one declaration, in this document, and not <c>partial</c> (nor inside a partial type): another part may
    /// sit in a file only another target compiles, or wholly in an inactive <c>#if</c> branch of another file, and use the
    /// storage there.
    /// </summary>
    private static SyntaxNode? TypeScope(INamedTypeSymbol type, SemanticModel model, CancellationToken cancellationToken)
    {
        var references = type.DeclaringSyntaxReferences;
        if (references.Length != 1 || references[0].SyntaxTree != model.SyntaxTree)
        {
            return null;
        }

        var declaration = references[0].GetSyntax(cancellationToken);
        return declaration.AncestorsAndSelf().OfType<TypeDeclarationSyntax>().Any(t => t.Modifiers.Any(SyntaxKind.PartialKeyword)) ? null : declaration;
    }
}
