using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading;
using CoarseTimers.Analyzers.Internals;
using CoarseTimers.Analyzers.Shared;
using CoarseTimers.CodeFixes.Shared;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Operations;

namespace CoarseTimers.CodeFixes.Fixes;

/// <summary>
/// CT0002's cheapest rewrite: a timeout source used only for its token becomes <c>CoarseTimeout.After(t)</c>, a shared
/// token with nothing to allocate or dispose. Offered only where that token behaves as the private one did for this
/// site: the source is a local whose every use passes <c>.Token</c> by value to a call or disposes it (or the
/// expression is <c>new CancellationTokenSource(t).Token</c> passed straight on, or kept in a local or parameter that is
/// only passed on). Then nobody cancels it early, registers on the source, reads its state, compares its token or lets
/// the source escape, which are the differences docs/rules/CT0002.md lists for a shared token.
/// </summary>
internal static class TimeoutTokenRewrite
{
    public static IReadOnlyList<DocumentEdit>? TryCreate(IObjectCreationOperation creation, SemanticModel model, KnownSymbols symbols, CancellationToken cancellationToken)
    {
        if (symbols.CoarseTimeout is null || creation.Syntax is not BaseObjectCreationExpressionSyntax { ArgumentList: { Arguments.Count: 1 } arguments } syntax)
        {
            return null;
        }

        // `new CancellationTokenSource(t).Token` handed to a call, kept in a local or parameter, or returned by a token
        // factory: the source was never reachable, nor disposed, and its timer fires whatever becomes of the token, as
        // the shared one does.
        if (creation.ConsumerSkippingConversions() is IPropertyReferenceOperation { Property.Name: nameof(System.Threading.CancellationTokenSource.Token) } token &&
            token.Property.ContainingType.Is(symbols.CancellationTokenSource) &&
            (IsPassedAsToken(token.Syntax, model, symbols, cancellationToken) || IsKeptOnlyToPass(token, model, symbols, cancellationToken) || TimerLifetime.TokenReturned(creation)))
        {
            return new[] { new DocumentEdit(token.Syntax, current => After(ArgumentsNow(current, arguments), model, syntax.SpanStart).WithTriviaFrom(current)) };
        }

        if (Storage.Of(creation) is not ILocalSymbol local ||
            local.DeclaringSyntaxReferences.FirstOrDefault()?.GetSyntax(cancellationToken) is not VariableDeclaratorSyntax { Parent: VariableDeclarationSyntax { Variables.Count: 1 } declaration } declarator ||
            declarator.Initializer?.Value != syntax ||
            StorageAnalysis.Analyze(local, model, cancellationToken) is not { AssignedValues.Count: 1 } storage)
        {
            return null;
        }

        var scope = declaration.Parent switch
        {
            LocalDeclarationStatementSyntax { Parent: BlockSyntax or GlobalStatementSyntax or SwitchSectionSyntax } statement => statement,
            UsingStatementSyntax statement => (SyntaxNode)statement,
            _ => null,
        };
        if (scope is null)
        {
            return null;
        }

        // A disposed source stops its timer: its token, wherever it went, is then never cancelled. The shared token is,
        // so it may only go where the use ends before the dispose: a framework call awaited on the spot, or a linked
        // source its `using` disposes first. (A source never disposed fires wherever its token went, as the shared one
        // does.) A Dispose() in a lambda or local function may run while such a call is still waiting: no rewrite.
        var disposeCalls = storage.References.Where(reference => IsDispose(reference.Parent)).ToList();
        if (disposeCalls.Any(call => StorageAnalysis.FunctionOf(call) != StorageAnalysis.FunctionOf(scope)))
        {
            return null;
        }

        // A Dispose() that may run before a token read makes that read throw ObjectDisposedException; the shared token
        // would not. Each must follow every read in the text, and not sit in a loop that runs the reads again (nor in a
        // function with a `goto`, which can jump back to them).
        var tokenReads = storage.References.Where(reference => !IsDispose(reference.Parent)).ToList();
        if (disposeCalls.Any(call => tokenReads.Any(read => read.SpanStart > call.SpanStart) || InLoopOutside(call, scope)) ||
            (disposeCalls.Count > 0 && StorageAnalysis.FunctionOf(scope)?.DescendantNodes().OfType<GotoStatementSyntax>().Any() == true))
        {
            return null;
        }

        var disposedByUsing = scope is UsingStatementSyntax || declaration.Parent is LocalDeclarationStatementSyntax { UsingKeyword.RawKind: not (int)SyntaxKind.None };
        var disposed = disposedByUsing || disposeCalls.Count > 0;
        var edits = new List<DocumentEdit>();
        var tokenName = FreeName(TokenName(local.Name), scope, model, cancellationToken);
        foreach (var reference in storage.References)
        {
            switch (reference.Parent)
            {
                case MemberAccessExpressionSyntax { Name.Identifier.ValueText: nameof(System.Threading.CancellationTokenSource.Token) } access when access.Expression == reference && IsPassedAsToken(access, model, symbols, cancellationToken) &&
                    (!disposed || IsPassedToAwaitedFrameworkCall(access, scope, model, symbols, cancellationToken) ||
                     (disposedByUsing && disposeCalls.Count == 0 && IsLinkedIntoSourceDisposedFirst(access, scope, model, symbols, cancellationToken))):
                    edits.Add(new DocumentEdit(access, current => SyntaxFactory.IdentifierName(tokenName).WithTriviaFrom(current)));
                    break;
                case MemberAccessExpressionSyntax { Name.Identifier.ValueText: nameof(System.IDisposable.Dispose), Parent: InvocationExpressionSyntax { ArgumentList.Arguments.Count: 0, Parent: ExpressionStatementSyntax { Parent: BlockSyntax } dispose } }:
                    edits.Add(RemoveDispose(dispose));
                    break;
                case ConditionalAccessExpressionSyntax { WhenNotNull: InvocationExpressionSyntax { Expression: MemberBindingExpressionSyntax { Name.Identifier.ValueText: nameof(System.IDisposable.Dispose) }, ArgumentList.Arguments.Count: 0 }, Parent: ExpressionStatementSyntax { Parent: BlockSyntax } dispose }:
                    edits.Add(RemoveDispose(dispose));
                    break;
                default:
                    return null;
            }
        }

        var position = syntax.SpanStart;
        edits.Add(new DocumentEdit(scope, current => current switch
        {
            LocalDeclarationStatementSyntax statement => TokenDeclaration(tokenName, After(ArgumentsNow(current, arguments), model, position)).WithTriviaFrom(statement),
            UsingStatementSyntax statement => UsingAsBlock(statement, TokenDeclaration(tokenName, After(ArgumentsNow(current, arguments), model, position))),
            _ => current,
        }));
        return edits;
    }

    /// <summary>
    /// <c>using (var cts = ...) { body }</c> as <c>{ var ctsToken = ...; body }</c>: the body's own braces stay, with what the
    /// user wrote at them (a comment after the brace, an <c>#if</c> block ending the body); a comment after the
    /// <c>using (...)</c> header goes above the new declaration.
    /// </summary>
    private static BlockSyntax UsingAsBlock(UsingStatementSyntax statement, StatementSyntax declaration)
    {
        var header = statement.CloseParenToken.TrailingTrivia;
        if (header.Any(Trivia.IsWritten))
        {
            // `// why` and its line end, as the user wrote them; the formatter indents them with the declaration.
            declaration = declaration.WithLeadingTrivia(header.SkipWhile(t => t.IsKind(SyntaxKind.WhitespaceTrivia)));
        }

        return statement.Statement is BlockSyntax block
            ? block.WithStatements(block.Statements.Insert(0, declaration)).WithLeadingTrivia(statement.GetLeadingTrivia())
            : SyntaxFactory.Block(declaration, statement.Statement).WithTriviaFrom(statement);
    }

    /// <summary>
    /// Removes the source's <c>Dispose()</c> statement. When it is all a <c>finally</c> holds, the <c>finally</c> goes
    /// with it: a <c>try</c> with <c>catch</c> clauses keeps them, one without becomes its body (spliced into the
    /// enclosing block when that declares nothing, see <see cref="BlockSplice"/>).
    /// </summary>
    private static DocumentEdit RemoveDispose(ExpressionStatementSyntax dispose)
    {
        // A finally (or a try body) that holds anything the user wrote besides the Dispose() (a comment, an #if block)
        // stays: only the statement goes, and its trivia with it stays too.
        if (dispose.Parent is not BlockSyntax { Statements.Count: 1, Parent: FinallyClauseSyntax { Parent: TryStatementSyntax tryStatement } finallyClause } ||
            Trivia.HasWritten(finallyClause) ||
            tryStatement.Catches.Count == 0 && HasWrittenAtBraces(tryStatement.Block))
        {
            return DocumentEdit.Remove(dispose);
        }

        return new DocumentEdit(tryStatement, current =>
        {
            var rewritten = (TryStatementSyntax)current;
            if (rewritten.Catches.Count > 0)
            {
                var lastCatch = rewritten.Catches.Last();
                return rewritten.ReplaceNode(lastCatch, lastCatch.WithTrailingTrivia(rewritten.Finally!.GetTrailingTrivia())).WithFinally(null);
            }

            return BlockSplice.Mark(rewritten.Block.WithLeadingTrivia(rewritten.GetLeadingTrivia()).WithTrailingTrivia(rewritten.GetTrailingTrivia()));
        });
    }

    // The braces of a block a splice would drop carry written trivia (an #if block or a comment ending the try body).
    private static bool HasWrittenAtBraces(BlockSyntax block) =>
        block.OpenBraceToken.LeadingTrivia.Concat(block.OpenBraceToken.TrailingTrivia).Concat(block.CloseBraceToken.LeadingTrivia).Concat(block.CloseBraceToken.TrailingTrivia)
            .Any(Trivia.IsWritten) || (block.Parent is TryStatementSyntax tryStatement && tryStatement.TryKeyword.TrailingTrivia.Any(Trivia.IsWritten));

    private static bool IsDispose(SyntaxNode? parent) => parent is
        MemberAccessExpressionSyntax { Name.Identifier.ValueText: nameof(System.IDisposable.Dispose), Parent: InvocationExpressionSyntax } or
        ConditionalAccessExpressionSyntax { WhenNotNull: InvocationExpressionSyntax { Expression: MemberBindingExpressionSyntax { Name.Identifier.ValueText: nameof(System.IDisposable.Dispose) } } };

    /// <summary>
    /// A token handed to a framework method (the BCL: <c>Stream.ReadAsync</c>, <c>Task.Delay</c>,
    /// <c>HttpClient.SendAsync</c>, <c>SemaphoreSlim.WaitAsync</c>, ...) whose call is awaited where it is made
    /// (<c>await X(token)</c>, also through <c>.ConfigureAwait(...)</c>) and whose result is not a token: the operation
    /// ends, and drops its registration, before the code goes on, so before the source is disposed. A call not awaited
    /// there (fire-and-forget, a task returned or stored, a constructor, a synchronous call that may register on the
    /// token), one awaited inside a lambda or local function (which may run later), and any method of the application or
    /// of a library (which may start work of its own with the token and return, or hand it back) could still hold it
    /// after the dispose.
    /// </summary>
    private static bool IsPassedToAwaitedFrameworkCall(SyntaxNode tokenRead, SyntaxNode sourceScope, SemanticModel model, KnownSymbols symbols, CancellationToken cancellationToken)
    {
        if (StorageAnalysis.FunctionOf(tokenRead) != StorageAnalysis.FunctionOf(sourceScope))
        {
            return false;
        }

        if (tokenRead.Parent?.Parent?.Parent is not InvocationExpressionSyntax call ||
            model.GetSymbolInfo(call, cancellationToken).Symbol is not IMethodSymbol method ||
            !IsFrameworkAssembly((method.ReducedFrom ?? method).ContainingAssembly) ||
            model.GetTypeInfo(call, cancellationToken).Type is INamedTypeSymbol { TypeArguments: var results } && results.Any(result => result.Is(symbols.CancellationToken) || result.Is(symbols.CancellationTokenSource)))
        {
            return false;
        }

        SyntaxNode awaited = call;
        if (awaited.Parent is MemberAccessExpressionSyntax { Name.Identifier.ValueText: "ConfigureAwait" } configure && configure.Expression == awaited &&
            configure.Parent is InvocationExpressionSyntax configured)
        {
            awaited = configured;
        }

        while (awaited.Parent is ParenthesizedExpressionSyntax parenthesized)
        {
            awaited = parenthesized;
        }

        return awaited.Parent is AwaitExpressionSyntax;
    }

    /// <summary>
    /// A token handed to <c>CancellationTokenSource.CreateLinkedTokenSource</c> whose result is a <c>using</c> local inside
    /// the source's own <c>using</c> scope (<c>using var linked = CreateLinkedTokenSource(stopping, cts.Token)</c>): the
    /// linked source is disposed first, which unregisters it from either token, so whatever holds the linked source's
    /// token afterwards sees no cancellation from the shared token either.
    /// </summary>
    private static bool IsLinkedIntoSourceDisposedFirst(SyntaxNode tokenRead, SyntaxNode sourceScope, SemanticModel model, KnownSymbols symbols, CancellationToken cancellationToken)
    {
        if (tokenRead.Parent?.Parent?.Parent is not InvocationExpressionSyntax call ||
            call.Parent is not EqualsValueClauseSyntax { Parent: VariableDeclaratorSyntax { Parent: VariableDeclarationSyntax linkedDeclaration } } ||
            !(linkedDeclaration.Parent is LocalDeclarationStatementSyntax { UsingKeyword.RawKind: not (int)SyntaxKind.None } || linkedDeclaration.Parent is UsingStatementSyntax) ||
            StorageAnalysis.FunctionOf(call) != StorageAnalysis.FunctionOf(sourceScope) ||
            !sourceScope.Span.Contains(call.Span) && !(sourceScope is LocalDeclarationStatementSyntax && sourceScope.Parent is BlockSyntax block && block.Span.Contains(call.Span) && call.SpanStart > sourceScope.Span.End))
        {
            return false;
        }

        return model.GetSymbolInfo(call, cancellationToken).Symbol is IMethodSymbol { Name: nameof(System.Threading.CancellationTokenSource.CreateLinkedTokenSource) } method &&
            method.ContainingType.Is(symbols.CancellationTokenSource);
    }

    // The BCL's own assemblies (reference or implementation), whose asynchronous operations release the token when they end.
    private static bool IsFrameworkAssembly(IAssemblySymbol? assembly) => assembly?.Name is { } name &&
        (name is "System" or "mscorlib" or "netstandard" or "System.Private.CoreLib" || name.StartsWith("System.", System.StringComparison.Ordinal));

    /// <summary>
    /// A parameter of a type's primary constructor is the object's state: every member reads it (one may compare it with
    /// another token), so a token kept in it is kept, as in a field.
    /// </summary>
    private static bool IsPrimaryConstructorParameter(ISymbol kept, CancellationToken cancellationToken) =>
        kept is IParameterSymbol { ContainingSymbol: IMethodSymbol { MethodKind: MethodKind.Constructor } } parameter &&
        parameter.DeclaringSyntaxReferences.Any(reference => reference.GetSyntax(cancellationToken).Parent?.Parent is TypeDeclarationSyntax);

    /// <summary>
    /// <c>var token = ...Token;</c> or <c>cancellationToken = ...Token;</c> into a local or a by-value parameter, whose every
    /// read in the member passes it by value to a call or compares it with <c>CancellationToken.None</c> or
    /// <c>default</c>. A token compared with another (<c>e.CancellationToken == readTimeout</c>) or stored would tell two
    /// shared tokens of one bucket apart no more (docs/rules/CT0002.md), so such a site keeps its diagnostic and no fix.
    /// </summary>
    private static bool IsKeptOnlyToPass(IOperation tokenRead, SemanticModel model, KnownSymbols symbols, CancellationToken cancellationToken)
    {
        if (TimerLifetime.KeptTokenVariable(tokenRead) is not { } kept || tokenRead.Syntax.FirstAncestorOrSelf<MemberDeclarationSyntax>() is not { } member ||
            IsPrimaryConstructorParameter(kept, cancellationToken))
        {
            return false;
        }

        // Top-level statements are one member spread over many global statements (and the local functions among them).
        // A read in code an #if leaves out (another target's, another configuration's) is not seen here: no rewrite.
        SyntaxNode scope = member is GlobalStatementSyntax { Parent: CompilationUnitSyntax program } ? program : member;
        if (ConditionalCode.IsNamedInInactiveCode(scope, kept.Name))
        {
            return false;
        }

        foreach (var identifier in SymbolReferences.Within(scope, kept, model, cancellationToken))
        {
            var written = identifier.Parent is AssignmentExpressionSyntax { RawKind: (int)SyntaxKind.SimpleAssignmentExpression } assignment && assignment.Left == identifier;
            if (!written && !IsPassedAsToken(identifier, model, symbols, cancellationToken) && !IsComparedWithNone(identifier))
            {
                return false;
            }
        }

        return true;
    }

    // `token == CancellationToken.None`, `token != default`: true or false alike for the private and the shared token.
    private static bool IsComparedWithNone(IdentifierNameSyntax identifier)
    {
        if (identifier.Parent is not BinaryExpressionSyntax { RawKind: (int)SyntaxKind.EqualsExpression or (int)SyntaxKind.NotEqualsExpression } comparison)
        {
            return false;
        }

        var other = comparison.Left == identifier ? comparison.Right : comparison.Left;
        return other is LiteralExpressionSyntax { RawKind: (int)SyntaxKind.DefaultLiteralExpression } or DefaultExpressionSyntax ||
               other is MemberAccessExpressionSyntax { Name.Identifier.ValueText: nameof(CancellationToken.None) };
    }

    /// <summary>
    /// A token value handed by value to a method or constructor parameter declared as a <c>CancellationToken</c> (or a
    /// <c>params</c> collection of them), where it is used to cancel. A parameter of another declared type (<c>object</c>,
    /// a type parameter: <c>Equals(token, other)</c>, <c>EqualityComparer&lt;T&gt;.Equals</c>, <c>HashSet&lt;T&gt;.Add</c>,
    /// <c>list.Add</c>) compares or keeps the token, which would tell two shared tokens of one bucket apart no more.
    /// </summary>
    private static bool IsPassedAsToken(SyntaxNode tokenRead, SemanticModel model, KnownSymbols symbols, CancellationToken cancellationToken, int depth = 0)
    {
        if (tokenRead.Parent is not ArgumentSyntax { RefKindKeyword.RawKind: (int)SyntaxKind.None } argument ||
            argument.Parent is not ArgumentListSyntax { Parent: InvocationExpressionSyntax or BaseObjectCreationExpressionSyntax } list ||
            model.GetSymbolInfo(list.Parent!, cancellationToken).Symbol is not IMethodSymbol method)
        {
            return false;
        }

        var parameters = method.OriginalDefinition.Parameters;
        var index = list.Arguments.IndexOf(argument);
        var parameter = argument.NameColon is { } name ? parameters.FirstOrDefault(p => p.Name == name.Name.Identifier.ValueText) :
            index < parameters.Length ? parameters[index] :
            parameters.Length > 0 && parameters[parameters.Length - 1].IsParams ? parameters[parameters.Length - 1] : null;
        return parameter?.Type switch
        {
            null => false,
            var type when type.Is(symbols.CancellationToken) => !TellsTokensApart(method, parameter, model.Compilation, symbols, depth, cancellationToken),
            IArrayTypeSymbol { ElementType: var element } when parameter.IsParams => element.Is(symbols.CancellationToken),
            INamedTypeSymbol { TypeArguments.Length: 1 } span when parameter.IsParams => span.TypeArguments[0].Is(symbols.CancellationToken),
            _ => false,
        };
    }

    /// <summary>
    /// A method with a body in this compilation that may tell the token it receives apart from other tokens: compares it
    /// with one (<c>catch (OperationCanceledException e) when (e.CancellationToken == connectTimeout)</c>), keeps it (a
    /// field, a local, a primary constructor's state), hands it to a parameter of another type, or to a method that does
    /// so itself. Two shared tokens of one bucket are equal, so such a callee could take one branch where two private
    /// tokens took two (found by a probe: "send timed out" became "connect timed out"). Reading the token's own members
    /// (<c>IsCancellationRequested</c>, <c>ThrowIfCancellationRequested()</c>, <c>Register</c>, ...), comparing it with
    /// <c>None</c> or <c>default</c> and handing it on to a token parameter are fine. A method without a body here (a
    /// library's, an interface's or abstract one, a delegate's <c>Invoke</c>) is trusted, as the docs say; past three calls
    /// deep it is not.
    /// </summary>
    private static bool TellsTokensApart(IMethodSymbol method, IParameterSymbol parameter, Compilation compilation, KnownSymbols symbols, int depth, CancellationToken cancellationToken)
    {
        var implementation = method.OriginalDefinition.PartialImplementationPart ?? method.OriginalDefinition;
        if (parameter.Ordinal >= implementation.Parameters.Length)
        {
            return true;
        }

        var received = implementation.Parameters[parameter.Ordinal];
        foreach (var reference in implementation.DeclaringSyntaxReferences)
        {
            var declaration = reference.GetSyntax(cancellationToken);
            SyntaxNode? body = declaration switch
            {
                BaseMethodDeclarationSyntax declared => (SyntaxNode?)declared.Body ?? declared.ExpressionBody,
                LocalFunctionStatementSyntax local => (SyntaxNode?)local.Body ?? local.ExpressionBody,
                TypeDeclarationSyntax => declaration, // a primary constructor: its parameters are the object's state
                _ => null,
            };
            if (body is null)
            {
                continue;
            }

            // Too deep, a primary constructor's state, or a read in code an #if leaves out (which cannot be seen): not trusted.
            if (depth >= 3 || declaration is TypeDeclarationSyntax || ConditionalCode.IsNamedInInactiveCode(body, received.Name))
            {
                return true;
            }

            var model = compilation.GetSemanticModel(declaration.SyntaxTree);
            foreach (var identifier in SymbolReferences.Within(body, received, model, cancellationToken))
            {
                var ownMember = identifier.Parent is MemberAccessExpressionSyntax
                {
                    Name.Identifier.ValueText: nameof(CancellationToken.IsCancellationRequested) or
                    nameof(CancellationToken.CanBeCanceled) or nameof(CancellationToken.ThrowIfCancellationRequested) or nameof(CancellationToken.Register) or
                    "UnsafeRegister" or nameof(CancellationToken.WaitHandle)
                } access && access.Expression == identifier;
                if (!ownMember && !IsComparedWithNone(identifier) && !IsPassedAsToken(identifier, model, symbols, cancellationToken, depth + 1))
                {
                    return true;
                }
            }
        }

        return false;
    }

    /// <summary><paramref name="node"/> sits in a loop of its function that does not also hold <paramref name="scope"/>: it may run again after it.</summary>
    private static bool InLoopOutside(SyntaxNode node, SyntaxNode scope)
    {
        for (var parent = node.Parent; parent is not null && parent != scope.Parent; parent = parent.Parent)
        {
            switch (parent)
            {
                case AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax or MemberDeclarationSyntax:
                    return false;
                case WhileStatementSyntax or DoStatementSyntax or ForStatementSyntax or CommonForEachStatementSyntax when !parent.Span.Contains(scope.Span):
                    return true;
            }
        }

        return false;
    }

    /// <summary>
    /// The source's argument list as it stands in <paramref name="current"/> (the `.Token` read, or the declaration),
    /// after any edit nested in it (a site inside the timeout's own argument): rebuilding from the original would undo
    /// that edit. The original when the shape is not found.
    /// </summary>
    private static ArgumentListSyntax ArgumentsNow(SyntaxNode current, ArgumentListSyntax original)
    {
        var creation = current switch
        {
            MemberAccessExpressionSyntax access => access.Expression,
            LocalDeclarationStatementSyntax statement => statement.Declaration.Variables.FirstOrDefault()?.Initializer?.Value,
            UsingStatementSyntax statement => statement.Declaration?.Variables.FirstOrDefault()?.Initializer?.Value,
            _ => null,
        };
        return creation is BaseObjectCreationExpressionSyntax { ArgumentList: { Arguments.Count: 1 } arguments } ? arguments : original;
    }

    private static InvocationExpressionSyntax After(ArgumentListSyntax arguments, SemanticModel model, int position) =>
        SyntaxFactory.InvocationExpression(
            RuntimeNames.StaticMember(RuntimeNames.CoarseTimeout, "After", model, position),
            arguments.ReplaceNodes(arguments.Arguments, static (_, argument) => argument.WithNameColon(null)));

    private static LocalDeclarationStatementSyntax TokenDeclaration(string name, ExpressionSyntax value) =>
        SyntaxFactory.LocalDeclarationStatement(
            SyntaxFactory.VariableDeclaration(
                SyntaxFactory.IdentifierName("var"),
                SyntaxFactory.SingletonSeparatedList(SyntaxFactory.VariableDeclarator(name).WithInitializer(SyntaxFactory.EqualsValueClause(value)))))
        .WithAdditionalAnnotations(Microsoft.CodeAnalysis.Formatting.Formatter.Annotation);

    /// <summary>
    /// <c>ctsToken</c> for <c>cts</c>: the source's name plus a suffix, so that two sources of one member, rewritten in
    /// one Fix All pass, never pick the same name.
    /// </summary>
    private static string TokenName(string sourceName) => sourceName + "Token";

    /// <summary><paramref name="name"/>, or it numbered, so that it neither hides nor clashes with anything the member sees or declares.</summary>
    private static string FreeName(string name, SyntaxNode statement, SemanticModel model, CancellationToken cancellationToken)
    {
        var member = statement.FirstAncestorOrSelf<SyntaxNode>(n => n is MemberDeclarationSyntax or CompilationUnitSyntax) ?? statement;
        var declared = new HashSet<string>(member.DescendantTokens().Where(t => t.IsKind(SyntaxKind.IdentifierToken)).Select(t => t.ValueText));
        // Nor a name that code an #if leaves out declares or uses, in this file or another file of the type (a field
        // under `#if NET10_0_OR_GREATER`): another target or configuration compiles it (CS0128, or two targets picking
        // two names and `dotnet format` writing merge-conflict markers).
        var files = new[] { statement.SyntaxTree }
            .Concat((model.GetEnclosingSymbol(statement.SpanStart, cancellationToken)?.ContainingType?.DeclaringSyntaxReferences ?? ImmutableArray<SyntaxReference>.Empty)
                .Select(reference => reference.SyntaxTree))
            .Distinct()
            .Select(tree => tree.GetRoot(cancellationToken))
            .ToList();
        for (var i = 1; ; i++)
        {
            var candidate = i == 1 ? name : name + i;
            if (!declared.Contains(candidate) && model.LookupSymbols(statement.SpanStart, name: candidate).IsEmpty &&
                !files.Any(root => ConditionalCode.IsNamedInInactiveCode(root, candidate)))
            {
                return candidate;
            }

            cancellationToken.ThrowIfCancellationRequested();
        }
    }
}
